// A command's stdout as the supervisor reads it: test events and the lines to check for failures. A
// structured stream (go test, TAP) is decoded whole for its events; once the stream shows itself plain
// text, only the lines that may be failures are decoded (failure-line-filter.ts).
import type { ParsedOutput } from '../../core/runners/events.js';
import type { SniffingParser } from '../../core/runners/sniffing-parser.js';
import { FailureLineFilter } from './failure-line-filter.js';

export class CommandOutputReader {
  private readonly decoder = new TextDecoder();
  private plain: FailureLineFilter | null = null;

  constructor(private readonly parser: SniffingParser) {}

  push(chunk: Buffer): ParsedOutput {
    if (this.plain) return { events: [], lines: this.plain.push(chunk).map((text) => ({ text })) };
    const parsed = this.parser.push(this.decoder.decode(chunk, { stream: true }));
    if (this.parser.kind === 'generic') this.plain = new FailureLineFilter(this.parser.takeUnterminated() + this.decoder.decode());
    return parsed;
  }

  end(exitCode: number | null): ParsedOutput {
    if (this.plain) {
      const ended = this.parser.end(exitCode);
      return { events: ended.events, lines: [...ended.lines, ...this.plain.end().map((text) => ({ text }))] };
    }
    const rest = this.decoder.decode();
    const last = rest ? this.parser.push(rest) : { events: [], lines: [] };
    const ended = this.parser.end(exitCode);
    return { events: [...last.events, ...ended.events], lines: [...last.lines, ...ended.lines] };
  }
}
