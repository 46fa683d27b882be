// The CLI's yes/no question before an action that may break another program. Without a terminal
// nobody can answer, so the caller refuses instead of guessing (`--yes` is the scripted answer).
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** Asks `question` on `output`, reads one line from `input`: true only for y / yes; false at EOF. */
export function askYesNo(question: string, input: Readable, output: Writable): Promise<boolean> {
  return new Promise((resolve) => {
    const lines = createInterface({ input, output, terminal: false });
    let answered = false;
    lines.once('line', (line) => {
      answered = true;
      lines.close();
      resolve(/^\s*y(es)?\s*$/i.test(line));
    });
    lines.once('close', () => {
      if (!answered) resolve(false);
    });
    output.write(`${question} [y/N] `);
  });
}
