// Turns chunks into complete lines: a chunk may end mid-line (or mid-CRLF), the remainder waits.
// Linear in the input: each chunk is scanned once, and an unterminated line waits as parts joined once
// when it ends (`pending + chunk` would rescan the whole line on every chunk: quadratic in a long
// line). `maxLineChars` keeps only the start of a longer line (a binary stream, a progress bar
// redrawn with \r), so what waits is bounded too; output passes through before it gets here, whole.

/** A command's output line longer than this is looked at only this far (failure signatures, test names). */
export const OUTPUT_LINE_CHARS = 64 * 1024;

export class LineSplitter {
  private parts: string[] = [];
  private kept = 0;

  constructor(
    private readonly maxLineChars = Infinity,
    /** Leaves out empty lines (and a lone \r): for readers where they mean nothing, not TAP's YAML. */
    private readonly dropBlank = false,
  ) {}

  push(chunk: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      if (this.dropBlank && this.kept === 0) {
        // A run of blank lines costs a character test each, not a line: megabytes of them stay linear.
        start = skipBlankLines(chunk, start);
        if (start > newline) continue;
      }
      this.keep(chunk, start, newline);
      const line = stripCr(this.take());
      if (!this.dropBlank || line !== '') lines.push(line);
      start = newline + 1;
    }
    this.keep(chunk, start, chunk.length);
    return lines;
  }

  /** What of the unterminated line was kept, as it is (a reader that goes on from here takes it over). */
  takeUnterminated(): string {
    return this.take();
  }

  /** The unterminated last line, if any. */
  end(): string[] {
    const last = this.take();
    if (last.length === 0) return [];
    return this.dropBlank && stripCr(last) === '' ? [] : [stripCr(last)];
  }

  private keep(chunk: string, from: number, to: number): void {
    const end = Math.min(to, from + (this.maxLineChars - this.kept));
    if (end <= from) return;
    this.parts.push(from === 0 && end === chunk.length ? chunk : chunk.slice(from, end));
    this.kept += end - from;
  }

  private take(): string {
    const line = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.kept = 0;
    return line;
  }
}

/** The index after the blank lines (\n or \r\n) that start at `from`; `from` when none does. */
function skipBlankLines(chunk: string, from: number): number {
  let at = from;
  for (;;) {
    const c = chunk.charCodeAt(at);
    if (c === 10) at++;
    else if (c === 13 && chunk.charCodeAt(at + 1) === 10) at += 2;
    else return at;
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
