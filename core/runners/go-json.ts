// `go test -json` (test2json): one JSON object per line, {Time, Action, Package, Test?, Output?}.
// Times are the runner's own. Non-JSON lines (build errors, `FAIL pkg [build failed]`) pass through.
import type { Clock } from '../clock.js';
import type { OutputLine, ParsedOutput, RunnerStreamParser, TestEvent, TestOutcome } from './events.js';
import { LineSplitter } from './line-splitter.js';

interface Test2JsonEvent {
  Time?: string;
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

const TEST_END: Readonly<Record<string, TestOutcome>> = { pass: 'passed', fail: 'failed', skip: 'skipped' };
/** `    hold_test.go:42: message`: the line a t.Error/t.Fatal prints, kept as the failure's detail. */
const GO_MESSAGE = /^\s+\S+\.go:\d+: /;

export class GoTestJsonParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter();
  private started = false;
  private anyFailed = false;
  private lastAtMs = 0;
  private readonly details = new Map<string, string>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  push(chunk: string): ParsedOutput {
    return this.parse(this.splitter.push(chunk));
  }

  end(exitCode?: number | null): ParsedOutput {
    const out = this.parse(this.splitter.end());
    const atMs = this.started ? this.lastAtMs : this.clock.now();
    if (!this.started) out.events.push({ type: 'run-start', name: 'go test', atMs });
    const failed = this.anyFailed || (exitCode !== undefined && exitCode !== null && exitCode !== 0);
    out.events.push({ type: 'run-end', name: 'go test', outcome: failed ? 'failed' : 'passed', atMs });
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
      if (!this.started) {
        this.started = true;
        events.push({ type: 'run-start', name: 'go test', atMs });
      }
      const name = e.Test !== undefined ? `${e.Package ?? ''}.${e.Test}` : undefined;
      if (e.Action === 'output' && e.Output !== undefined) {
        const text = e.Output.endsWith('\n') ? e.Output.slice(0, -1) : e.Output;
        lines.push(name ? { text, test: name } : { text });
        if (name && GO_MESSAGE.test(text) && !this.details.has(name)) this.details.set(name, text.trim());
      } else if (e.Action === 'run' && name) {
        events.push({ type: 'test-start', name, atMs });
      } else if (TEST_END[e.Action]) {
        const outcome = TEST_END[e.Action]!;
        if (outcome === 'failed') this.anyFailed = true;
        if (!name) continue; // a package's own pass/fail: the run ends at end()
        const event: TestEvent = { type: 'test-end', name, outcome, atMs };
        const detail = this.details.get(name);
        if (outcome === 'failed' && detail) event.detail = detail;
        this.details.delete(name);
        events.push(event);
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
