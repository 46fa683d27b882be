// Picks the parser for a command's stdout from its first line: `go test -json` objects, `go test -v`'s
// `=== RUN`, TAP, or plain lines. Runners announce themselves in their first line, so nothing before it is lost.
// The TAP parser comes from its owner, once loaded (tap-parser and yaml were two thirds of `holdwatch
// run`'s code, which every run loaded before starting its command): a TAP stream's lines pass on at
// once, and its test events wait, with the time each chunk arrived, to be parsed as if at once.
import type { Clock } from '../clock.js';
import type { ParsedOutput, RunnerStreamParser, TestEvent } from './events.js';
import { GenericLineParser } from './generic.js';
import { GoTestJsonParser } from './go-json.js';
import { GoTestVerboseParser } from './go-verbose.js';
import { LineSplitter, OUTPUT_LINE_CHARS } from './line-splitter.js';

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
  /**
   * A TAP stream while its parser loads: its chunks with the time each arrived, for the events, and its
   * lines passed on at once (a teardown failure line must not wait for a parser: the scan it triggers
   * would come late), split as the TAP parser splits them, so its replay's lines are these again.
   */
  private waitingForTap: { chunks: { text: string; atMs: number }[]; lines: LineSplitter } | null = null;
  kind: RunnerKind | undefined;

  constructor(
    private readonly runName: string,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly tap: TapParserSource,
  ) {}

  push(chunk: string): ParsedOutput {
    if (this.waitingForTap) return this.waitForTap(chunk);
    if (this.chosen) return this.chosen.push(chunk);
    this.pending += chunk;
    const newline = this.pending.indexOf('\n');
    if (newline < 0 && this.pending.length < 4096) return NOTHING;
    const buffered = this.pending;
    this.pending = '';
    this.kind = detectRunner(newline < 0 ? buffered : buffered.slice(0, newline));
    if (this.kind === 'tap') {
      this.waitingForTap = { chunks: [], lines: new LineSplitter(OUTPUT_LINE_CHARS) };
      return this.waitForTap(buffered);
    }
    return this.choose().push(buffered);
  }

  /** Its owner makes sure the TAP parser is loaded by now; were it not, the run has its lines and no test events. */
  end(exitCode?: number | null): ParsedOutput {
    if (!this.chosen && !this.waitingForTap) {
      this.kind = detectRunner(this.pending);
      if (this.kind === 'tap') {
        this.waitingForTap = { chunks: [], lines: new LineSplitter(OUTPUT_LINE_CHARS) };
        const early = this.waitForTap(this.pending);
        this.pending = '';
        return joined([early, this.end(exitCode)]);
      }
    }
    if (this.waitingForTap) {
      const started = this.startTap();
      if (started) return joined([started, this.chosen!.end(exitCode)]);
      const rest = this.waitingForTap.lines.end().map((text) => ({ text }));
      this.waitingForTap = null;
      this.kind = 'generic';
      this.chosen = new GenericLineParser(this.runName, this.clock);
      return { events: this.chosen.end(exitCode).events, lines: rest };
    }
    const parser = this.chosen ?? this.choose();
    const rest = this.pending ? parser.push(this.pending) : NOTHING;
    this.pending = '';
    return joined([rest, parser.end(exitCode)]);
  }

  /**
   * Once the stream is plain lines (kind 'generic'): the unterminated line so far, which this parser
   * then forgets; its owner reads the rest of the lines itself, and ends this parser for the run's end.
   */
  takeUnterminated(): string {
    return this.chosen instanceof GenericLineParser ? this.chosen.takeUnterminated() : '';
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

  private waitForTap(chunk: string): ParsedOutput {
    const waiting = this.waitingForTap!;
    waiting.chunks.push({ text: chunk, atMs: this.clock.now() });
    const lines = waiting.lines.push(chunk).map((text) => ({ text }));
    const started = this.startTap();
    return started ? { events: started.events, lines } : { events: [], lines };
  }

  /**
   * The TAP parser, once loaded, fed what waited at the times it arrived: its events; its lines were
   * passed on as they came. null while it is not loaded.
   */
  private startTap(): ParsedOutput | null {
    const make = this.tap();
    const waiting = this.waitingForTap;
    if (!make || !waiting) return null;
    let replayingAtMs: number | null = null;
    const parser = make(this.runName, { now: () => replayingAtMs ?? this.clock.now() });
    const events: TestEvent[] = [];
    for (const { text, atMs } of waiting.chunks) {
      replayingAtMs = atMs;
      events.push(...parser.push(text).events);
    }
    replayingAtMs = null;
    this.chosen = parser;
    this.waitingForTap = null;
    return { events, lines: [] };
  }
}

function joined(parts: readonly ParsedOutput[]): ParsedOutput {
  return { events: parts.flatMap((p) => p.events), lines: parts.flatMap((p) => p.lines) };
}
