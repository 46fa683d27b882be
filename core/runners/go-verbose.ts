// `go test -v`: `=== RUN   TestX` when a test starts, `--- PASS: TestX (0.01s)` (FAIL, SKIP) when its
// result is printed, subtests indented; `=== PAUSE`/`=== CONT` around parallel tests. The output has
// no timestamps: events are stamped when their line arrives. A subtest's result is printed with its
// parent's (after `--- PASS: TestGroup`), so its end is late by up to the parent's length: Go's tests
// are placed by their t.TempDir() names where it matters (run-recorder.ts), not by these times.
// Test names are as the runner prints them (no package: -v names it only in its last line).
import type { Clock } from '../clock.js';
import type { OutputLine, ParsedOutput, RunnerStreamParser, TestEvent, TestOutcome } from './events.js';
import { LineSplitter } from './line-splitter.js';

const RUN = /^=== RUN\s+(\S.*)$/;
const CONT = /^=== (?:CONT|NAME)\s+(\S.*)$/;
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S.*?) \(\d+(?:\.\d+)?s\)$/;
const OUTCOMES: Readonly<Record<string, TestOutcome>> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };
/** `    hold_test.go:42: message`: what t.Error/t.Fatal prints, kept as the failure's detail. */
const GO_MESSAGE = /^\s+\S+\.go:\d+: /;

export class GoTestVerboseParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter();
  private started = false;
  private anyFailed = false;
  /** The test whose output is printing now: the last RUN or CONT. */
  private current: string | undefined;
  private readonly details = new Map<string, string>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  push(chunk: string): ParsedOutput {
    return this.parse(this.splitter.push(chunk));
  }

  end(exitCode?: number | null): ParsedOutput {
    const out = this.parse(this.splitter.end());
    const atMs = this.clock.now();
    if (!this.started) out.events.push({ type: 'run-start', name: 'go test', atMs });
    const failed = this.anyFailed || (exitCode !== undefined && exitCode !== null && exitCode !== 0);
    out.events.push({ type: 'run-end', name: 'go test', outcome: failed ? 'failed' : 'passed', atMs });
    return out;
  }

  private parse(rawLines: string[]): ParsedOutput {
    const events: TestEvent[] = [];
    const lines: OutputLine[] = [];
    for (const text of rawLines) {
      const atMs = this.clock.now();
      if (!this.started) {
        this.started = true;
        events.push({ type: 'run-start', name: 'go test', atMs });
      }
      const run = RUN.exec(text);
      const cont = run ? null : CONT.exec(text);
      const result = run || cont ? null : RESULT.exec(text);
      if (run) {
        this.current = run[1]!;
        events.push({ type: 'test-start', name: this.current, atMs });
      } else if (cont) {
        this.current = cont[1]!;
      } else if (result) {
        const outcome = OUTCOMES[result[1]!]!;
        const name = result[2]!;
        if (outcome === 'failed') this.anyFailed = true;
        const event: TestEvent = { type: 'test-end', name, outcome, atMs };
        const detail = this.details.get(name);
        if (outcome === 'failed' && detail) event.detail = detail;
        this.details.delete(name);
        events.push(event);
      } else if (this.current && GO_MESSAGE.test(text) && !this.details.has(this.current)) {
        this.details.set(this.current, text.trim());
      }
      if (text.length > 0) lines.push(this.current && !run && !result ? { text, test: this.current } : { text });
    }
    return { events, lines };
  }
}
