// `go test -json` (test2json): one JSON object per line, {Time, Action, Package, Test?, Output?}.
// Times are the runner's own. Non-JSON lines (build errors, `FAIL pkg [build failed]`) pass through.
import type { Clock } from '../clock.js';
import type { OutputLine, ParsedOutput, RunnerStreamParser, TestEvent, TestOutcome } from './events.js';
import { GoTestRun } from './go-run.js';
import { LineSplitter, OUTPUT_LINE_CHARS } from './line-splitter.js';

interface Test2JsonEvent {
  Time?: string;
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

const TEST_END: Readonly<Record<string, TestOutcome>> = { pass: 'passed', fail: 'failed', skip: 'skipped' };

export class GoTestJsonParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter(OUTPUT_LINE_CHARS, true);
  private readonly run = new GoTestRun();
  private lastAtMs = 0;

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  push(chunk: string): ParsedOutput {
    return this.parse(this.splitter.push(chunk));
  }

  end(exitCode?: number | null): ParsedOutput {
    const out = this.parse(this.splitter.end());
    this.run.finish(out.events, this.run.hasStarted ? this.lastAtMs : this.clock.now(), exitCode);
    return out;
  }

  private parse(rawLines: string[]): ParsedOutput {
    const events: TestEvent[] = [];
    const lines: OutputLine[] = [];
    for (const raw of rawLines) {
      const e = decode(raw);
      if (!e) {
        if (raw.length > 0) lines.push({ text: raw });
        continue;
      }
      const parsedMs = e.Time ? Date.parse(e.Time) : Number.NaN;
      const atMs = Number.isFinite(parsedMs) ? parsedMs : this.clock.now();
      this.lastAtMs = atMs;
      this.run.start(events, atMs);
      const name = e.Test !== undefined ? `${e.Package ?? ''}.${e.Test}` : undefined;
      if (e.Action === 'output' && e.Output !== undefined) {
        const text = e.Output.endsWith('\n') ? e.Output.slice(0, -1) : e.Output;
        lines.push(name ? { text, test: name } : { text });
        if (name) this.run.output(name, text);
      } else if (e.Action === 'run' && name) {
        events.push({ type: 'test-start', name, atMs });
      } else if (TEST_END[e.Action]) {
        const outcome = TEST_END[e.Action]!;
        if (!name) {
          if (outcome === 'failed') this.run.failed(); // a package's own fail: the run ends at end()
          continue;
        }
        events.push(this.run.ended(name, outcome, atMs));
      }
    }
    return { events, lines };
  }
}

function decode(line: string): Test2JsonEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    if (typeof v !== 'object' || v === null || typeof (v as Test2JsonEvent).Action !== 'string') return undefined;
    return v as Test2JsonEvent;
  } catch {
    return undefined;
  }
}
