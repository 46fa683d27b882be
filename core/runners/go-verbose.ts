// `go test -v`: `=== RUN   TestX` when a test starts, `--- PASS: TestX (0.01s)` (FAIL, SKIP) when its
// result is printed, subtests indented; `=== PAUSE`/`=== CONT` around parallel tests. The output has
// no timestamps: events are stamped when their line arrives. A subtest's result is printed with its
// parent's (after `--- PASS: TestGroup`), so its end is late by up to the parent's length: Go's tests
// are placed by their t.TempDir() names where it matters (run-recorder.ts), not by these times.
// Test names are as the runner prints them (no package: -v names it only in its last line).
import type { Clock } from '../clock.js';
import type { OutputLine, ParsedOutput, RunnerStreamParser, TestEvent, TestOutcome } from './events.js';
import { GoTestRun } from './go-run.js';
import { LineSplitter, OUTPUT_LINE_CHARS } from './line-splitter.js';

const RUN = /^=== RUN\s+(\S.*)$/;
const CONT = /^=== (?:CONT|NAME)\s+(\S.*)$/;
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S.*?) \(\d+(?:\.\d+)?s\)$/;
const OUTCOMES: Readonly<Record<string, TestOutcome>> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };
export class GoTestVerboseParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter(OUTPUT_LINE_CHARS, true);
  private readonly run = new GoTestRun();
  /** The test whose output is printing now: the last RUN or CONT. */
  private current: string | undefined;

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  push(chunk: string): ParsedOutput {
    return this.parse(this.splitter.push(chunk));
  }

  end(exitCode?: number | null): ParsedOutput {
    const out = this.parse(this.splitter.end());
    this.run.finish(out.events, this.clock.now(), exitCode);
    return out;
  }

  private parse(rawLines: string[]): ParsedOutput {
    const events: TestEvent[] = [];
    const lines: OutputLine[] = [];
    for (const text of rawLines) {
      const atMs = this.clock.now();
      this.run.start(events, atMs);
      const run = RUN.exec(text);
      const cont = run ? null : CONT.exec(text);
      const result = run || cont ? null : RESULT.exec(text);
      if (run) {
        this.current = run[1]!;
        events.push({ type: 'test-start', name: this.current, atMs });
      } else if (cont) {
        this.current = cont[1]!;
      } else if (result) {
        events.push(this.run.ended(result[2]!, OUTCOMES[result[1]!]!, atMs));
      } else if (this.current) {
        this.run.output(this.current, text);
      }
      if (text.length > 0) lines.push(this.current && !run && !result ? { text, test: this.current } : { text });
    }
    return { events, lines };
  }
}
