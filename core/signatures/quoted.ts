// Reading the quoted path out of an error line. Each runtime quotes differently: Python prints a
// repr (backslashes doubled, either quote), Node and coreutils print the raw text in quotes
// (coreutils may use ‘typographic’ quotes), Rust's Debug uses "double quotes" with escapes.

/**
 * The Python repr literal starting at `start` (a quote char), unescaped; undefined if unterminated.
 * Python always doubles a backslash in a repr, so a body with single backslashes only was retyped
 * or mangled by Markdown on its way to us: it is taken as written rather than read `\t` as a tab.
 */
export function readPythonRepr(text: string, start: number): string | undefined {
  const quote = text[start];
  if (quote !== "'" && quote !== '"') return undefined;
  let end = start + 1;
  while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1;
  if (end >= text.length) return undefined;
  const body = text.slice(start + 1, end);
  return body.includes('\\\\') ? unescapePython(body) : body;
}

function unescapePython(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.length === 3) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
  });
}

const CLOSERS: Record<string, string> = { "'": "'", '"': '"', '‘': '’', '`': "'", '«': '»' };

/** The raw text between the quote at `start` and its closer (no unescaping). */
export function readRawQuoted(text: string, start: number): string | undefined {
  const closer = CLOSERS[text[start] ?? ''];
  if (!closer) return undefined;
  const end = text.indexOf(closer, start + 1);
  return end > start ? text.slice(start + 1, end) : undefined;
}

/** A path given bare (Go, Java): trims trailing spaces; empty means none. */
export function cleanBarePath(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed.length > 0 ? trimmed : undefined;
}

/** True for `C:\...`, `\\server\...`, `\\?\...`: a Windows path, so an unnumbered error is a Win32 one. */
export function looksLikeWindowsPath(path: string): boolean {
  return /^(?:[A-Za-z]:[\\/]|\\\\)/.test(path);
}
