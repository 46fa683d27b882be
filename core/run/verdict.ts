// How a holder's verdict is decided: one pure function, the evidence strongest first, one line of
// reason per rule. RunRecorder gathers the facts; changing a rule changes this file (and its tests).
import type { Attribution, Evidence, Verdict } from '../../contract/runs.js';
import type { LedgerRow } from './holder-ledger.js';
import { scratchOf } from './scratch.js';

/**
 * A test's end (or a wider scope's: a module's, a class's) as the scan its process waited for saw it, or
 * as the process listed it itself (`by`).
 */
export interface Boundary {
  test: string;
  scope?: Scope['kind'];
  by: 'test-boundary' | 'self-inventory';
  pid: number;
  /** The runner's end of the test or scope. */
  endedAtMs: number;
  scanStartedAtMs: number;
  scanEndedAtMs: number;
  held: ReadonlySet<string>;
  /** When the process stopped waiting for this scan (timed out, or never waited); absent: it waited to the end. */
  wentOnAtMs?: number;
}

/**
 * What a boundary says of a holding: held at the end (seen by its scan, or in its process's own list),
 * not held (unseen by a scan done while its process still waited), or nothing (unseen by a scan that
 * ended after the process went on: it may have been let go since).
 */
export function heldAtEnd(b: Boundary, key: string): boolean | undefined {
  if (b.held.has(key)) return true;
  return b.wentOnAtMs === undefined || b.scanEndedAtMs <= b.wentOnAtMs ? false : undefined;
}

export interface Finding {
  test: string | null;
  by: Evidence | null;
  /** Opened outside any test: the wider scope that had to close it. */
  scope?: Scope;
}

export type Scope = NonNullable<Attribution['scope']>;

/** What the run's journal says about one row, as verdictOf asks it. */
export interface RunFacts {
  /** The scan at the end of `scope`, after the row was first seen, that its process waited for. */
  scopeEnd(row: LedgerRow, scope: Scope): Boundary | undefined;
  /** The scan (or own list) at the end of test `test`, after the row was first seen, that its process waited for. */
  testEnd(row: LedgerRow, test: string): Boundary | undefined;
  /** Held while its process was stopped at its exit (a Go test binary under holdwatch's -exec program). */
  heldAtExit(row: LedgerRow): boolean;
  /** Seen by a scan begun after the command's own process exited. */
  seenAfterCommandExit(row: LedgerRow): boolean;
  /** When test `test` ended, by the runner's timeline; null while it runs or when unknown. */
  testEndMs(test: string): number | null;
}

export function verdictOf(row: LedgerRow, opened: Finding, run: RunFacts): { verdict: Verdict; by: Evidence } {
  if (!row.member) return { verdict: 'outside-run', by: 'process-tree' };
  // The runner's own scratch, an anonymous temp file: held past a test, but no teardown deletes it.
  if (scratchOf(row.holder) !== null) return { verdict: 'in-run', by: 'process-tree' };
  if (row.blocked) return { verdict: 'blocked-cleanup', by: 'failure-scan' };
  // A run process deleted a path while it, or a live child of it, held it (the probe saw the call), or a
  // scan saw the file unlinked: on Windows that delete fails, as the cleanup's does.
  if (row.stacks?.open.found && row.stacks.open.stack.deletedBy) return { verdict: 'blocked-cleanup', by: 'deleted-while-held' };
  if (row.stacks?.deletedBy) return { verdict: 'blocked-cleanup', by: 'deleted-while-held' };
  if (row.holder.deleted) return { verdict: 'blocked-cleanup', by: 'deleted-while-held' };
  // The finalizer closed it, the code never did: inside its test, a leak CPython hides; after it
  // (a cycle collected later, between tests), it outlived its test as any leak does.
  const finalized = row.closedByFinalizer;
  if (finalized && opened.test !== null) return { verdict: finalized.during === opened.test ? 'closed-by-gc' : 'leaked-past-test', by: 'probe-finalizer' };
  const scopeEnd = opened.scope ? run.scopeEnd(row, opened.scope) : undefined;
  if (finalized && scopeEnd) return { verdict: scopeEnd.held.has(row.key) ? 'leaked-past-test' : 'closed-by-gc', by: 'probe-finalizer' };
  // The probe inside the process wrote, at the end of its test or scope, whether this open was still open.
  const held = row.stacks?.open.found ? row.stacks.open.stack.heldPastTest : undefined;
  if ((opened.by === 'probe-open' || opened.by === 'self-inventory' || opened.by === 'syscall-ledger') && held !== undefined)
    return { verdict: held ? 'leaked-past-test' : 'in-run', by: opened.by };
  // The syscall ledger put the open, its test's end and the close in one order. An open made while
  // tests ran side by side names none of them, yet one still open at the last of their ends outlived
  // whichever test made it.
  const ledger = row.stacks?.open.found && row.stacks.open.viaPid === null && row.stacks.open.stack.runtime === 'strace';
  if (ledger && held !== undefined) return { verdict: held ? 'leaked-past-test' : 'in-run', by: 'syscall-ledger' };
  // Held when the scan at its scope's end ran (a module's fixtures finalized), the process waiting.
  const atScopeEnd = scopeEnd ? heldAtEnd(scopeEnd, row.key) : undefined;
  if (scopeEnd && atScopeEnd !== undefined) return { verdict: atScopeEnd ? 'leaked-past-test' : 'in-run', by: scopeEnd.by };
  // A scan its process did not wait out saw nothing: the weaker evidence below decides, or it stays unknown.
  let unconfirmed = scopeEnd !== undefined;
  if (opened.test !== null) {
    // Held when the scan at its test's end ran, the test process waiting: it outlived its test. On
    // Linux this is the prediction of a Windows teardown failure.
    const end = run.testEnd(row, opened.test);
    const atEnd = end ? heldAtEnd(end, row.key) : undefined;
    if (end && atEnd !== undefined) return { verdict: atEnd ? 'leaked-past-test' : 'in-run', by: end.by };
    unconfirmed ||= end !== undefined;
    // Held while its process was stopped at its exit (after all of that process's tests).
    if (run.heldAtExit(row)) return { verdict: 'leaked-past-test', by: 'exit-stop' };
    // Polls only: still held after the command exited is the larger claim (it outlived its test too),
    // and whether a poll also met it before the exit is timing.
    if (run.seenAfterCommandExit(row)) return { verdict: 'outlived-run', by: 'poll' };
    // No boundary for it: seen at a poll that started after its test had ended.
    const testEnd = run.testEndMs(opened.test);
    if (testEnd !== null && row.lastSeenAtMs > testEnd) return { verdict: 'leaked-past-test', by: 'poll' };
  }
  // Seen by a scan begun after the command exited: its process lived on, holding it, after the run.
  if (run.seenAfterCommandExit(row)) return { verdict: 'outlived-run', by: 'poll' };
  return { verdict: 'in-run', by: unconfirmed ? 'boundary-unconfirmed' : (opened.by ?? 'poll') };
}
