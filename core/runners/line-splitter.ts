// Turns chunks into complete lines: a chunk may end mid-line (or mid-CRLF), the remainder waits.

export class LineSplitter {
  private pending = '';

  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const lines = text.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.map(stripCr);
  }

  /** The unterminated last line, if any. */
  end(): string[] {
    const last = this.pending;
    this.pending = '';
    return last.length > 0 ? [stripCr(last)] : [];
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
