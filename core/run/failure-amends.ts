// A failure's journal entry, amended when a runner says two halves of one failure at different moments:
// the output line (bats' `# rm: ...`) before the event that names its test, or the runner's teardown
// event, whose words may name no signature, before the output line that says what failed. Either comes
// first under load; the record is the same either way.
import type { JournalEntry } from '../../contract/journal.js';
import type { FailureMatch } from '../signatures/failure-line.js';

/** One recorded failure: what it says now, and whether its entry is written yet. */
export interface FailureSlot {
  atMs: number;
  test: string | null;
  line: string;
  match: FailureMatch;
  written: boolean;
}

/** A failure the runner's event reported with no signature in its words. */
const GENERIC_KIND = 'teardown-error';

export class FailureAmends {
  private nameless: FailureSlot | null = null;
  private unsaid: FailureSlot | null = null;

  constructor(
    private readonly write: (entry: JournalEntry) => void,
    private readonly now: () => number,
    private readonly mergeMs: number,
  ) {}

  /** A failure was recorded: it may yet be given its test, or its words. */
  opened(slot: FailureSlot): void {
    if (slot.test === null) this.nameless = slot;
    if (slot.match.kind === GENERIC_KIND) this.unsaid = slot;
  }

  /** The runner's event names the test of the line that came first (dated by arrival it would blame a later test). */
  nameTest(test: string): void {
    const slot = this.nameless;
    if (!slot || slot.test !== null || this.now() - slot.atMs > this.mergeMs) return;
    slot.test = test;
    if (slot.written) this.write({ t: 'failure-test', atMs: slot.atMs, test });
  }

  /** The output line says what the failure the runner's event reported just now was. */
  sayWhat(line: string, match: FailureMatch): void {
    const slot = this.unsaid;
    if (!slot || slot.match.kind !== GENERIC_KIND || this.now() - slot.atMs > this.mergeMs) return;
    slot.line = line;
    slot.match = match;
    if (slot.written) this.write({ t: 'failure-said', atMs: slot.atMs, text: line.slice(0, 2000), path: match.path, kind: match.kind, code: match.code });
  }
}
