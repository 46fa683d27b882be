// The run's test timeline, fed by runner events (pytest plugin, go test -json, TAP, ...). Answers
// "which test was running at time t" for attribution. A run may have 100,000 tests: each is kept as
// numbers (its moments in ms, its outcomes) and becomes a TestRecord, with ISO strings, only when asked.
// The phases' moments of all tests are kept in one array, not as an object of two boxed numbers per
// phase: they were most of what a long run kept per test.
import type { FoldedPhase } from '../../contract/journal.js';
import type { TestEvent, TestOutcome, TestPhase, TestRecord } from '../../contract/runs.js';
import { TEST_PHASES } from '../../contract/enums.js';
import { isoOfMs } from '../iso-time.js';

const PHASES = TEST_PHASES;
const PHASE_INDEX = Object.fromEntries(PHASES.map((phase, index) => [phase, index])) as Record<TestPhase, number>;
/** Per test in PhaseMoments: each phase's start and end. */
const MOMENTS_PER_TEST = PHASES.length * 2;

interface OpenTest {
  name: string;
  startedAtMs: number;
  endedAtMs: number | null;
  /** Its start was stamped by the test's own process (TestEvent.inTestProcess): exact, not late. */
  inTestProcess: boolean;
  outcome: TestOutcome | null;
  phase?: TestPhase;
  phases?: Partial<Record<TestPhase, TestOutcome>>;
  /** Its place in the timeline, and its row in PhaseMoments. */
  row: number;
  /**
   * The phases whose span began, in the order they began (phaseTimes lists them so): a base-4 digit
   * each, PHASES index + 1, the latest lowest; 0 while none.
   */
  spanOrder: number;
}

/** Each test's phase moments by its row: setup's start and end, call's, teardown's. */
class PhaseMoments {
  private moments = new Float64Array(MOMENTS_PER_TEST * 256);

  /** Sets the end of `phase`'s span in test `row`, and its start with `starts`. */
  set(row: number, phase: number, atMs: number, starts: boolean): void {
    const at = row * MOMENTS_PER_TEST + phase * 2;
    if (at >= this.moments.length) {
      const grown = new Float64Array(this.moments.length * 2);
      grown.set(this.moments);
      this.moments = grown;
    }
    if (starts) this.moments[at] = atMs;
    this.moments[at + 1] = atMs;
  }

  span(row: number, phase: number): { startedAtMs: number; endedAtMs: number } {
    const at = row * MOMENTS_PER_TEST + phase * 2;
    return { startedAtMs: this.moments[at]!, endedAtMs: this.moments[at + 1]! };
  }
}

export class TestTimeline {
  private readonly tests: OpenTest[] = [];
  private readonly moments = new PhaseMoments();

  /** A runner's event; a test's end may carry its phases folded in (contract/journal.ts): applied before it, as their own events would be. */
  apply(event: TestEvent, phases?: readonly FoldedPhase[]): void {
    if (phases?.length) {
      const test = this.latestOpen(event.name) ?? this.startImplicitly(event.name, phases[0]![1]);
      for (const [phase, atMs, outcome] of phases) this.applyPhase(test, phase, atMs, outcome);
    }
    if (event.type === 'run-start' || event.type === 'run-end') return;
    if (event.type === 'test-start') {
      const row = this.tests.length;
      this.tests.push({
        name: event.name,
        startedAtMs: event.atMs,
        endedAtMs: null,
        inTestProcess: event.inTestProcess === true,
        outcome: null,
        row,
        spanOrder: 0,
      });
      return;
    }
    const test = this.latestOpen(event.name) ?? this.startImplicitly(event.name, event.atMs);
    if (event.type === 'phase') {
      if (event.phase) this.applyPhase(test, event.phase, event.atMs, event.outcome);
      return;
    }
    test.endedAtMs = event.atMs;
    test.outcome = event.outcome ?? null;
    const decidingPhase = event.phase ?? failingPhase(test.phases);
    if (decidingPhase) test.phase = decidingPhase;
  }

  /**
   * The test running at `ms`: the most recently started one not yet ended then. `lateMs`: how late the
   * events read from output are stamped; a moment is compared with those as if that much later.
   */
  testAt(ms: number, lateMs = 0): string | null {
    for (let i = this.tests.length - 1; i >= 0; i--) {
      const t = this.tests[i]!;
      const at = t.inTestProcess ? ms : ms + lateMs;
      if (t.startedAtMs <= at && (t.endedAtMs === null || at <= t.endedAtMs)) return t.name;
    }
    return null;
  }

  /**
   * Whether `ms` surely comes before every test's start: only where the test process stamped each start
   * (a start read from output may be stamped any time later); false with no test.
   */
  beforeFirstTest(ms: number): boolean {
    return this.tests.length > 0 && this.tests.every((t) => t.inTestProcess && ms < t.startedAtMs);
  }

  /** The test that ended most recently at or before `ms` (`lateMs` as for testAt). */
  lastEndedBefore(ms: number, lateMs = 0): string | null {
    let best: OpenTest | undefined;
    for (const t of this.tests) {
      const at = t.inTestProcess ? ms : ms + lateMs;
      if (t.endedAtMs !== null && t.endedAtMs <= at && (!best || t.endedAtMs >= best.endedAtMs!)) best = t;
    }
    return best?.name ?? null;
  }

  /** When the named test (its latest run) ended, or null while it runs or when unknown. */
  endOf(name: string | null): number | null {
    if (name === null) return null;
    for (let i = this.tests.length - 1; i >= 0; i--) if (this.tests[i]!.name === name) return this.tests[i]!.endedAtMs;
    return null;
  }

  /** Every test's name, once each, in the order they started. */
  names(): string[] {
    return [...new Set(this.tests.map((t) => t.name))];
  }

  /** The name of the n-th test to start (from 1), as bats numbers its tests. */
  nameOfNth(n: number): string | null {
    return this.tests[n - 1]?.name ?? null;
  }

  /** The first test to start whose name passes `matches`. */
  findName(matches: (name: string) => boolean): string | null {
    return this.tests.find((t) => matches(t.name))?.name ?? null;
  }

  /** The tests whose names pass `matches`, with when each started, in the order they started. */
  startsOf(matches: (name: string) => boolean): { name: string; startedAtMs: number }[] {
    return this.tests.filter((t) => matches(t.name)).map((t) => ({ name: t.name, startedAtMs: t.startedAtMs }));
  }

  records(): TestRecord[] {
    return this.tests.map((t) => this.recordOf(t));
  }

  private latestOpen(name: string): OpenTest | undefined {
    for (let i = this.tests.length - 1; i >= 0; i--) {
      const t = this.tests[i]!;
      if (t.name === name && t.endedAtMs === null) return t;
    }
    return undefined;
  }

  /** Runners like TAP only say "ok"/"not ok" at the end: the test is known from then on. */
  private startImplicitly(name: string, atMs: number): OpenTest {
    this.apply({ type: 'test-start', name, atMs });
    return this.tests.at(-1)!;
  }

  /** A phase start opens its time span; its end closes it and carries the outcome. */
  private applyPhase(test: OpenTest, phase: TestPhase, atMs: number, outcome: TestOutcome | undefined): void {
    const index = PHASE_INDEX[phase];
    const starts = !hasBegun(test, index);
    if (starts) test.spanOrder = test.spanOrder * 4 + index + 1;
    this.moments.set(test.row, index, atMs, starts);
    if (outcome) (test.phases ??= {})[phase] = outcome;
  }

  private recordOf(t: OpenTest): TestRecord {
    const record: TestRecord = {
      name: t.name,
      startedAt: isoOfMs(t.startedAtMs),
      endedAt: t.endedAtMs === null ? null : isoOfMs(t.endedAtMs),
      outcome: t.outcome,
    };
    // In the order the events add them, as reports and journals have always listed them.
    if (t.spanOrder !== 0) {
      const times: NonNullable<TestRecord['phaseTimes']> = {};
      for (const index of spanOrderOf(t)) {
        const span = this.moments.span(t.row, index);
        times[PHASES[index]!] = { startedAt: isoOfMs(span.startedAtMs), endedAt: isoOfMs(span.endedAtMs) };
      }
      record.phaseTimes = times;
    }
    if (t.phases) record.phases = { ...t.phases };
    if (t.phase) record.phase = t.phase;
    return record;
  }
}

function hasBegun(test: OpenTest, index: number): boolean {
  for (let digits = test.spanOrder; digits > 0; digits = Math.floor(digits / 4)) if (digits % 4 === index + 1) return true;
  return false;
}

/** The PHASES indexes of a test's phase spans, in the order they began. */
function spanOrderOf(test: OpenTest): number[] {
  const order: number[] = [];
  for (let digits = test.spanOrder; digits > 0; digits = Math.floor(digits / 4)) order.unshift((digits % 4) - 1);
  return order;
}

function failingPhase(phases: OpenTest['phases']): TestPhase | undefined {
  if (!phases) return undefined;
  return (['setup', 'call', 'teardown'] as const).find((p) => phases[p] === 'failed' || phases[p] === 'error');
}
