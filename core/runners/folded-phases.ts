// A test's phases folded into its end (contract/journal.ts FoldedPhase): one entry where a runner that
// stamps every phase would otherwise write one per phase start and report.
import type { FoldedPhase } from '../../contract/journal.js';
import type { TestEvent, TestOutcome, TestPhase } from '../../contract/runs.js';

export type { FoldedPhase };

/** A test event with the phases folded into it (only a test's end carries any). */
export interface FoldedTestEvent {
  event: TestEvent;
  phases?: FoldedPhase[];
}

/** The phase events that `phases` stand for, in order: those of `end`'s test, stamped where `end` was. */
export function phaseEventsOf(end: TestEvent, phases: readonly FoldedPhase[]): TestEvent[] {
  return phases.map(([phase, atMs, outcome]) => ({
    type: 'phase',
    name: end.name,
    phase,
    ...(outcome === undefined ? {} : { outcome }),
    atMs,
    ...(end.inTestProcess === undefined ? {} : { inTestProcess: end.inTestProcess }),
  }));
}

/** The events one folded event stands for: its phases, then itself. */
export function unfolded({ event, phases }: FoldedTestEvent): TestEvent[] {
  return phases ? [...phaseEventsOf(event, phases), event] : [event];
}

function isFailedTeardown(phase: TestPhase | undefined, outcome: TestOutcome | undefined): boolean {
  return phase === 'teardown' && (outcome === 'error' || outcome === 'failed');
}

/**
 * The event of a teardown that failed: `event` itself, or one of the phases folded into it (the pytest
 * plugin folds only phases that did not fail, but a line that folds one is weighed as its own line is).
 */
export function failedTeardown(event: TestEvent, phases: readonly FoldedPhase[] | undefined): TestEvent | undefined {
  if (event.type === 'phase' && isFailedTeardown(event.phase, event.outcome)) return event;
  const failed = phases?.find(([phase, , outcome]) => isFailedTeardown(phase, outcome));
  return failed ? phaseEventsOf(event, [failed])[0] : undefined;
}
