// The lines of a command's output that may be teardown failures, read from its bytes: a line is
// decoded from UTF-8 only when its head holds a failure anchor, so output that passes through
// (megabytes of binary or progress text) costs a latin1 view and one regex test a line.
import { mayBeTeardownFailureBytes } from '../../core/signatures/match-line.js';
import { OUTPUT_LINE_CHARS } from '../../core/runners/line-splitter.js';

/** The head of a line that is looked at: a longer line cannot be a test runner's failure line in full. */
const HEAD_BYTES = OUTPUT_LINE_CHARS;

export class FailureLineFilter {
  /** The head of the unterminated line so far, one char a byte. */
  private head: string;

  /** `start`: text an earlier reader left unterminated, which this line continues. */
  constructor(start = '') {
    this.head = Buffer.from(start, 'utf8').toString('latin1').slice(0, HEAD_BYTES);
  }

  /** The lines `chunk` ends that may be failures, decoded, without their line ends. */
  push(chunk: Buffer): string[] {
    const text = chunk.toString('latin1');
    const found: string[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      this.keep(text, start, newline);
      this.check(found);
      start = newline + 1;
    }
    this.keep(text, start, text.length);
    return found;
  }

  /** The unterminated last line, when it may be a failure. */
  end(): string[] {
    const found: string[] = [];
    this.check(found);
    return found;
  }

  private keep(text: string, from: number, to: number): void {
    const room = HEAD_BYTES - this.head.length;
    if (room > 0 && to > from) this.head += text.slice(from, Math.min(to, from + room));
  }

  private check(found: string[]): void {
    const head = this.head;
    this.head = '';
    if (head.length === 0 || !mayBeTeardownFailureBytes(head)) return;
    const line = Buffer.from(head, 'latin1').toString('utf8');
    found.push(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
}
