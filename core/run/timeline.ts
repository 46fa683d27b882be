// The run's test timeline, fed by runner events (pytest plugin, go test -json, TAP, ...). Answers
// "which test was running at time t" for attribution.
import type { TestEvent, TestPhase, TestRecord } from '../../contract/runs.js';

interface OpenTest {
  record: TestRecord;
  startedAtMs: number;
  endedAtMs: number | null;
  /** Its start was stamped by the test's own process (TestEvent.inTestProcess): exact, not late. */
  inTestProcess: boolean;
}

export class TestTimeline {
  private readonly tests: OpenTest[] = [];

  apply(event: TestEvent): void {
    if (event.type === 'run-start' || event.type === 'run-end') return;
    const iso = new Date(event.atMs).toISOString();
    if (event.type === 'test-start') {
      this.tests.push({
        record: { name: event.name, startedAt: iso, endedAt: null, outcome: null },
        startedAtMs: event.atMs,
        endedAtMs: null,
        inTestProcess: event.inTestProcess === true,
      });
      return;
    }
    const test = this.latestOpen(event.name) ?? this.startImplicitly(event.name, event.atMs);
    if (event.type === 'phase') {
      if (!event.phase) return;
      // A phase start opens its time span; its end closes it and carries the outcome.
      const span = test.record.phaseTimes?.[event.phase];
      test.record.phaseTimes = { ...test.record.phaseTimes, [event.phase]: { startedAt: span?.startedAt ?? iso, endedAt: iso } };
      if (event.outcome) test.record.phases = { ...test.record.phases, [event.phase]: event.outcome };
      return;
    }
    test.endedAtMs = event.atMs;
    test.record.endedAt = iso;
    test.record.outcome = event.outcome ?? null;
    const decidingPhase = event.phase ?? failingPhase(test.record.phases);
    if (decidingPhase) test.record.phase = decidingPhase;
  }

  /**
   * The test running at `ms`: the most recently started one not yet ended then. `lateMs`: how late the
   * events read from output are stamped; a moment is compared with those as if that much later.
   */
  testAt(ms: number, lateMs = 0): string | null {
    for (let i = this.tests.length - 1; i >= 0; i--) {
      const t = this.tests[i]!;
      const at = t.inTestProcess ? ms : ms + lateMs;
      if (t.startedAtMs <= at && (t.endedAtMs === null || at <= t.endedAtMs)) return t.record.name;
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
    return best?.record.name ?? null;
  }

  /** When the named test (its latest run) ended, or null while it runs or when unknown. */
  endOf(name: string | null): number | null {
    if (name === null) return null;
    for (let i = this.tests.length - 1; i >= 0; i--) if (this.tests[i]!.record.name === name) return this.tests[i]!.endedAtMs;
    return null;
  }

  /** Every test's name, once each, in the order they started. */
  names(): string[] {
    return [...new Set(this.tests.map((t) => t.record.name))];
  }

  records(): TestRecord[] {
    return this.tests.map((t) => ({ ...t.record }));
  }

  private latestOpen(name: string): OpenTest | undefined {
    for (let i = this.tests.length - 1; i >= 0; i--) {
      const t = this.tests[i]!;
      if (t.record.name === name && t.endedAtMs === null) return t;
    }
    return undefined;
  }

  /** Runners like TAP only say "ok"/"not ok" at the end: the test is known from then on. */
  private startImplicitly(name: string, atMs: number): OpenTest {
    this.apply({ type: 'test-start', name, atMs });
    return this.tests.at(-1)!;
  }
}

function failingPhase(phases: TestRecord['phases']): TestPhase | undefined {
  if (!phases) return undefined;
  return (['setup', 'call', 'teardown'] as const).find((p) => phases[p] === 'failed' || phases[p] === 'error');
}
