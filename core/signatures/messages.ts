// Message texts that name a holder failure without a number: Windows' FormatMessage texts (English
// and translated: Go and Java print them without the code), Wine's, and the Unix strerror texts.
// One row per OS text.
import { EBUSY, ENOTEMPTY, ERROR_ACCESS_DENIED, ERROR_DIR_NOT_EMPTY, ERROR_LOCK_VIOLATION, ERROR_SHARING_VIOLATION } from './os-errors.js';
import type { win32ByCode } from './os-errors.js';

type Known = NonNullable<ReturnType<typeof win32ByCode>>;

interface MessageText {
  /** A distinctive fragment; matched case-sensitively except where `anyCase`. */
  text: string;
  known: Known;
  anyCase?: boolean;
}

// Fragments, not whole sentences: runtimes trim or add the final period, Java drops it.
// Translations marked "seen" were copied from public issue threads (sources in the test samples);
// the German and French ones are Windows' wording as commonly quoted, not yet checked against a sample.
export const MESSAGE_TEXTS: readonly MessageText[] = [
  { text: 'because it is being used by another process', known: ERROR_SHARING_VIOLATION },
  { text: 'because another process has locked a portion of the file', known: ERROR_LOCK_VIOLATION },
  { text: 'The directory is not empty', known: ERROR_DIR_NOT_EMPTY },
  { text: 'Access is denied', known: ERROR_ACCESS_DENIED },
  { text: 'device or resource busy', known: EBUSY, anyCase: true },
  { text: 'resource busy or locked', known: EBUSY },
  { text: 'directory not empty', known: ENOTEMPTY, anyCase: true },
  // Wine's own FormatMessage texts (kernelbase's table, not Windows' wording), as a Windows program
  // run under Wine prints them (Go's `remove C:\x: Sharing violation.`; samples printed here).
  { text: 'Sharing violation', known: ERROR_SHARING_VIOLATION }, // Wine
  { text: 'Lock violation', known: ERROR_LOCK_VIOLATION }, // Wine
  { text: 'Directory is not empty', known: ERROR_DIR_NOT_EMPTY }, // Wine
  { text: 'Access denied.', known: ERROR_ACCESS_DENIED }, // Wine
  { text: '另一个程序正在使用此文件', known: ERROR_SHARING_VIOLATION }, // zh-CN, seen
  { text: '他のプロセスがファイルを使用中', known: ERROR_SHARING_VIOLATION }, // ja, seen
  { text: '다른 프로세스가 파일을 사용 중', known: ERROR_SHARING_VIOLATION }, // ko, seen
  { text: 'brukes av en annen prosess', known: ERROR_SHARING_VIOLATION }, // nb, seen
  { text: 'sendo usado por outro processo', known: ERROR_SHARING_VIOLATION }, // pt-BR, seen
  { text: 'von einem anderen Prozess verwendet', known: ERROR_SHARING_VIOLATION }, // de
  { text: 'utilisé par un autre processus', known: ERROR_SHARING_VIOLATION }, // fr
  { text: '目录不是空的', known: ERROR_DIR_NOT_EMPTY }, // zh-CN, seen
  { text: 'Mappen er ikke tom', known: ERROR_DIR_NOT_EMPTY }, // da, seen
  { text: 'Das Verzeichnis ist nicht leer', known: ERROR_DIR_NOT_EMPTY }, // de
  { text: "Le répertoire n'est pas vide", known: ERROR_DIR_NOT_EMPTY }, // fr
  { text: 'Le répertoire n’est pas vide', known: ERROR_DIR_NOT_EMPTY }, // fr, typographic apostrophe
];

export interface MessageHit {
  known: Known;
  /** Where the fragment starts in the searched text. */
  index: number;
}

/** The first known message in `text` (leftmost), or undefined. */
export function findMessage(text: string): MessageHit | undefined {
  let best: MessageHit | undefined;
  let lower: string | undefined;
  for (const m of MESSAGE_TEXTS) {
    let index: number;
    if (m.anyCase) {
      lower ??= text.toLowerCase();
      index = lower.indexOf(m.text);
    } else {
      index = text.indexOf(m.text);
    }
    if (index >= 0 && (!best || index < best.index)) best = { known: m.known, index };
  }
  return best;
}
