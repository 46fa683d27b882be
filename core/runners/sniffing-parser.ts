// Picks the parser for a command's stdout from its first line: `go test -json` objects, `go test -v`'s
// `=== RUN`, TAP, or plain lines. Runners announce themselves in their first line, so nothing before it is lost.
import type { Clock } from '../clock.js';
import type { ParsedOutput, RunnerStreamParser } from './events.js';
import { GenericLineParser } from './generic.js';
import { GoTestJsonParser } from './go-json.js';
import { GoTestVerboseParser } from './go-verbose.js';
import { TapStreamParser } from './tap.js';

export type RunnerKind = 'go-test-json' | 'go-test-v' | 'tap' | 'generic';

export function detectRunner(firstLine: string): RunnerKind {
  const line = firstLine.trimStart();
  if (/^\{"Time":|^\{"Action":/.test(line)) return 'go-test-json';
  if (/^=== RUN\s/.test(line)) return 'go-test-v';
  if (/^TAP version \d+/.test(line) || /^1\.\.\d+/.test(line)) return 'tap';
  return 'generic';
}

export class SniffingParser implements RunnerStreamParser {
  private chosen: RunnerStreamParser | undefined;
  private pending = '';
  kind: RunnerKind | undefined;

  constructor(
    private readonly runName: string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  push(chunk: string): ParsedOutput {
    if (this.chosen) return this.chosen.push(chunk);
    this.pending += chunk;
    const newline = this.pending.indexOf('\n');
    if (newline < 0 && this.pending.length < 4096) return { events: [], lines: [] };
    const buffered = this.pending;
    this.pending = '';
    return this.choose(newline < 0 ? buffered : buffered.slice(0, newline)).push(buffered);
  }

  end(exitCode?: number | null): ParsedOutput {
    const parser = this.chosen ?? this.choose(this.pending);
    const rest = this.pending ? parser.push(this.pending) : { events: [], lines: [] };
    this.pending = '';
    const last = parser.end(exitCode);
    return { events: [...rest.events, ...last.events], lines: [...rest.lines, ...last.lines] };
  }

  private choose(firstLine: string): RunnerStreamParser {
    this.kind = detectRunner(firstLine);
    this.chosen =
      this.kind === 'go-test-json'
        ? new GoTestJsonParser(this.clock)
        : this.kind === 'go-test-v'
          ? new GoTestVerboseParser(this.clock)
          : this.kind === 'tap'
            ? new TapStreamParser(this.runName, this.clock)
            : new GenericLineParser(this.runName, this.clock);
    return this.chosen;
  }
}
