// The bundled probes (pytest plugin, node reporter, bats formatter) append one JSON event per line
// to the file named by HOLDWATCH_EVENTS. This reads that file's content as it grows: every line is
// validated (a test process can write anything there), bad lines are counted, never trusted.
import type { ParsedOutput, RunnerStreamParser } from './events.js';
import { OUTCOMES, PHASES, toTestEvent } from './events.js';
import { unfolded, type FoldedPhase, type FoldedTestEvent } from './folded-phases.js';
import { LineSplitter } from './line-splitter.js';

export class ProbeEventsParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter();
  /** Lines that were not a valid event (a torn write is finished by the next chunk, so it is not one). */
  rejectedLines = 0;

  push(chunk: string): ParsedOutput {
    return { events: this.pushFolded(chunk).flatMap(unfolded), lines: [] };
  }

  /** The file is only read, never a run's output: the exit code changes nothing here. */
  end(): ParsedOutput {
    return { events: this.endFolded().flatMap(unfolded), lines: [] };
  }

  /** As push, with the phases a test-end line carries kept folded in its event (the journal keeps them so). */
  pushFolded(chunk: string): FoldedTestEvent[] {
    return this.decode(this.splitter.push(chunk));
  }

  endFolded(): FoldedTestEvent[] {
    return this.decode(this.splitter.end());
  }

  private decode(lines: string[]): FoldedTestEvent[] {
    const events: FoldedTestEvent[] = [];
    for (const line of lines) {
      if (line.trim().length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = undefined;
      }
      const event = toTestEvent(value);
      const phases = event?.type === 'test-end' ? foldedPhases(value as Record<string, unknown>) : null;
      if (!event || phases === undefined) this.rejectedLines++;
      else events.push(phases ? { event, phases } : { event });
    }
    return events;
  }
}

/**
 * The phases a test-end line carries (the pytest plugin folds those that did not fail into it:
 * `[phase, atMs]` a start, `[phase, atMs, outcome]` a report), in the order written; null when it
 * carries none; undefined when one is not a phase, and the line is refused whole.
 */
function foldedPhases(line: Record<string, unknown>): FoldedPhase[] | null | undefined {
  const phases = line.phases;
  if (phases === undefined) return null;
  if (!Array.isArray(phases)) return undefined;
  const folded: FoldedPhase[] = [];
  for (const entry of phases) {
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) return undefined;
    const [phase, atMs, outcome] = entry as unknown[];
    if (!PHASES.has(phase) || typeof atMs !== 'number' || !Number.isFinite(atMs)) return undefined;
    if (entry.length === 3 && !OUTCOMES.has(outcome)) return undefined;
    folded.push(entry as FoldedPhase);
  }
  return folded.length > 0 ? folded : null;
}
