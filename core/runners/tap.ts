// TAP 13/14 (node --test's tap reporter, bats --formatter tap, prove...) through tap-parser, the
// parser of the tapjs project: it already handles indented subtests, YAML diagnostics, directives,
// pragmas and bail-outs, which a hand-written reader would get subtly wrong. Its events fire
// synchronously inside write(), so every push returns what that chunk completed.
// TAP has no clock: times come from the injected one, taken when the line arrives. tap-parser holds
// a test point back until the next line shows no YAML block follows (and a "# Subtest:" comment a
// line more), so each event is stamped with the arrival time of the line that made it, kept in
// arrival order, and released in the parser's order.
import { Parser } from 'tap-parser';
import type { Result } from 'tap-parser';
import type { Clock } from '../clock.js';
import type { ParsedOutput, RunnerStreamParser, TestEvent, TestOutcome } from './events.js';
import { LineSplitter, OUTPUT_LINE_CHARS } from './line-splitter.js';

const SUBTEST = /^((?:    )*)# Subtest: (.*)$/;
const TEST_POINT = /^\s*(?:not )?ok(?:\s|$)/;

export class TapStreamParser implements RunnerStreamParser {
  private readonly parser = new Parser();
  private readonly splitter = new LineSplitter(OUTPUT_LINE_CHARS);
  /** The open subtests by nesting level (TAP 14 indents each level by four spaces). */
  private readonly open: string[] = [];
  /** Subtest starts and test-point arrival times, in stream order, waiting for the parser to reach them. */
  private readonly pendingStarts: TestEvent[] = [];
  private readonly testPointTimes: number[] = [];
  private events: TestEvent[] = [];
  private started = false;
  private ended = false;

  constructor(
    private readonly runName: string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {
    this.attach(this.parser);
    this.parser.on('complete', (results: { ok: boolean }) => this.endRun(results.ok ? 'passed' : 'failed'));
    this.parser.on('bailout', () => this.endRun('failed'));
  }

  push(chunk: string): ParsedOutput {
    this.startRun();
    const lines = this.splitter.push(chunk).map((text) => ({ text }));
    for (const { text } of lines) this.writeLine(text);
    return { events: this.drain(), lines };
  }

  end(exitCode?: number | null): ParsedOutput {
    this.startRun();
    const lines = this.splitter.end().map((text) => ({ text }));
    for (const { text } of lines) this.writeLine(text);
    this.parser.end();
    while (this.pendingStarts.length > 0) this.releaseStart();
    if (exitCode !== undefined && exitCode !== null && exitCode !== 0) this.endRun('failed');
    this.endRun('passed'); // no-op when the TAP itself (or the exit code) already ended the run
    return { events: this.drain(), lines };
  }

  private attach(p: Parser): void {
    p.on('comment', (comment: string) => {
      if (SUBTEST.test(comment.trimEnd())) this.releaseStart();
    });
    p.on('assert', (a: Result) => {
      const atMs = this.testPointTimes.shift() ?? this.clock.now();
      const event: TestEvent = { type: 'test-end', name: a.fullname || join(p.fullname, a.name), outcome: outcomeOf(a), atMs };
      const detail = detailOf(a);
      if (detail && (event.outcome === 'failed' || event.outcome === 'error')) event.detail = detail;
      this.push1(event);
    });
    p.on('child', (child: Parser) => this.attach(child));
  }

  private writeLine(line: string): void {
    const m = SUBTEST.exec(line);
    if (m) {
      this.open.length = m[1]!.length / 4;
      this.open.push(m[2]!);
      this.pendingStarts.push({ type: 'test-start', name: this.open.join(' > '), atMs: this.clock.now() });
    } else if (TEST_POINT.test(line)) {
      this.testPointTimes.push(this.clock.now());
    }
    this.parser.write(`${line}\n`);
  }

  private startRun(): void {
    if (this.started) return;
    this.started = true;
    this.push1({ type: 'run-start', name: this.runName, atMs: this.clock.now() });
  }

  private releaseStart(): void {
    const start = this.pendingStarts.shift();
    if (start) this.push1(start);
  }

  private endRun(outcome: TestOutcome): void {
    if (this.ended) return;
    this.ended = true;
    this.push1({ type: 'run-end', name: this.runName, outcome, atMs: this.clock.now() });
  }

  private push1(event: TestEvent): void {
    this.events.push(event);
  }

  private drain(): TestEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }
}

function join(parent: string, name: string): string {
  return parent ? `${parent} > ${name}` : name;
}

/** The YAML block under a result, as tap-parser read it (untyped: any text may be there). */
function diagnosticOf(a: Result): Record<string, unknown> {
  const diag: unknown = a.diag;
  return typeof diag === 'object' && diag !== null ? (diag as Record<string, unknown>) : {};
}

function outcomeOf(a: Result): TestOutcome {
  if (a.skip || a.todo) return 'skipped';
  if (a.ok) return 'passed';
  // node --test marks a failing before/after hook so; the body itself may have passed.
  const failureType: unknown = diagnosticOf(a).failureType;
  return failureType === 'hookFailed' ? 'error' : 'failed';
}

function detailOf(a: Result): string | undefined {
  const diag = diagnosticOf(a);
  const error: unknown = diag.error ?? diag.message;
  const text = typeof error === 'string' ? error : undefined;
  return text
    ?.split('\n')
    .find((l) => l.trim().length > 0)
    ?.trim();
}
