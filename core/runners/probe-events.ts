// The bundled probes (pytest plugin, node reporter, bats formatter) append one JSON event per line
// to the file named by HOLDWATCH_EVENTS. This reads that file's content as it grows: every line is
// validated (a test process can write anything there), bad lines are counted, never trusted.
import type { ParsedOutput, RunnerStreamParser, TestEvent } from './events.js';
import { toTestEvent } from './events.js';
import { LineSplitter } from './line-splitter.js';

export class ProbeEventsParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter();
  /** Lines that were not a valid event (a torn write is finished by the next chunk, so it is not one). */
  rejectedLines = 0;

  push(chunk: string): ParsedOutput {
    return { events: this.decode(this.splitter.push(chunk)), lines: [] };
  }

  /** The file is only read, never a run's output: the exit code changes nothing here. */
  end(): ParsedOutput {
    return { events: this.decode(this.splitter.end()), lines: [] };
  }

  private decode(lines: string[]): TestEvent[] {
    const events: TestEvent[] = [];
    for (const line of lines) {
      if (line.trim().length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = undefined;
      }
      const event = toTestEvent(value);
      const folded = event?.type === 'test-end' ? foldedPhases(value as Record<string, unknown>, event) : [];
      if (event && folded) {
        for (const phase of folded) events.push(phase);
        events.push(event);
      } else this.rejectedLines++;
    }
    return events;
  }
}

/**
 * The phases a test-end line carries (the pytest plugin folds those that did not fail into it:
 * `[phase, atMs]` a start, `[phase, atMs, outcome]` a report), as the phase events they stand for, in
 * the order written; undefined when one is not a phase, and the line is refused whole.
 */
function foldedPhases(line: Record<string, unknown>, end: TestEvent): TestEvent[] | undefined {
  const phases = line.phases;
  if (phases === undefined) return [];
  if (!Array.isArray(phases)) return undefined;
  const events: TestEvent[] = [];
  for (const entry of phases) {
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) return undefined;
    const [phase, atMs, outcome] = entry as unknown[];
    const event = toTestEvent({ type: 'phase', name: end.name, phase, atMs, outcome, inTestProcess: end.inTestProcess });
    if (!event || event.phase === undefined || (entry.length === 3 && event.outcome === undefined)) return undefined;
    events.push(event);
  }
  return events;
}
