// Picks the parser for a command's stdout from its first line: `go test -json` objects, `go test -v`'s
// `=== RUN`, TAP, or plain lines. Runners announce themselves in their first line, so nothing before it is lost.
// The TAP parser comes from its owner, once loaded (tap-parser and yaml were two thirds of `holdwatch
// run`'s code, which every run loaded before starting its command): what a TAP stream says before then
// waits, with the time each chunk arrived, and is parsed as if it had been at once.
import type { Clock } from '../clock.js';
import type { ParsedOutput, RunnerStreamParser } from './events.js';
import { GenericLineParser } from './generic.js';
import { GoTestJsonParser } from './go-json.js';
import { GoTestVerboseParser } from './go-verbose.js';

/** Makes a TAP parser (tap.ts's TapStreamParser); null while it is not loaded yet. */
export type TapParserSource = () => ((runName: string, clock: Pick<Clock, 'now'>) => RunnerStreamParser) | null;

const NOTHING: ParsedOutput = { events: [], lines: [] };

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
  /** A TAP stream's chunks while its parser loads, each with the time it arrived. */
  private waitingForTap: { text: string; atMs: number }[] | null = null;
  kind: RunnerKind | undefined;

  constructor(
    private readonly runName: string,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly tap: TapParserSource,
  ) {}

  push(chunk: string): ParsedOutput {
    if (this.waitingForTap) {
      this.waitingForTap.push({ text: chunk, atMs: this.clock.now() });
      return this.startTap() ?? NOTHING;
    }
    if (this.chosen) return this.chosen.push(chunk);
    this.pending += chunk;
    const newline = this.pending.indexOf('\n');
    if (newline < 0 && this.pending.length < 4096) return NOTHING;
    const buffered = this.pending;
    this.pending = '';
    this.kind = detectRunner(newline < 0 ? buffered : buffered.slice(0, newline));
    if (this.kind === 'tap') {
      this.waitingForTap = [{ text: buffered, atMs: this.clock.now() }];
      return this.startTap() ?? NOTHING;
    }
    return this.choose().push(buffered);
  }

  /** Its owner makes sure the TAP parser is loaded by now; were it not, what waited is read as plain lines. */
  end(exitCode?: number | null): ParsedOutput {
    if (!this.chosen && !this.waitingForTap) {
      this.kind = detectRunner(this.pending);
      if (this.kind === 'tap') {
        this.waitingForTap = [{ text: this.pending, atMs: this.clock.now() }];
        this.pending = '';
      }
    }
    if (this.waitingForTap) {
      const started = this.startTap();
      if (started) return joined([started, this.chosen!.end(exitCode)]);
      this.pending = this.waitingForTap.map((c) => c.text).join('');
      this.waitingForTap = null;
      this.kind = 'generic';
    }
    const parser = this.chosen ?? this.choose();
    const rest = this.pending ? parser.push(this.pending) : NOTHING;
    this.pending = '';
    return joined([rest, parser.end(exitCode)]);
  }

  private choose(): RunnerStreamParser {
    this.chosen =
      this.kind === 'go-test-json'
        ? new GoTestJsonParser(this.clock)
        : this.kind === 'go-test-v'
          ? new GoTestVerboseParser(this.clock)
          : new GenericLineParser(this.runName, this.clock);
    return this.chosen;
  }

  /** The TAP parser, once loaded, fed what waited at the times it arrived; null while it is not. */
  private startTap(): ParsedOutput | null {
    const make = this.tap();
    if (!make || !this.waitingForTap) return null;
    let replayingAtMs: number | null = null;
    this.chosen = make(this.runName, { now: () => replayingAtMs ?? this.clock.now() });
    const parsed: ParsedOutput[] = [];
    for (const { text, atMs } of this.waitingForTap) {
      replayingAtMs = atMs;
      parsed.push(this.chosen.push(text));
    }
    replayingAtMs = null;
    this.waitingForTap = null;
    return joined(parsed);
  }
}

function joined(parts: readonly ParsedOutput[]): ParsedOutput {
  return { events: parts.flatMap((p) => p.events), lines: parts.flatMap((p) => p.lines) };
}
