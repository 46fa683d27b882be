// Leaks no scan saw. A test that opens a file, ends with it open, and whose process exits a few
// milliseconds later (node --test runs each file in its own short process) is over before the next
// poll. The probe inside that process wrote, at the test's end, which of the test's opens were still
// open: each is a leak past its test, seen from inside, and the record says which line opened it.
// Pure: the probe index and the watched dirs in, the leaks out.
import type { OpenStack } from '../../contract/stacks.js';
import type { DeleteRecord, ExitRecord, OpenRecord, ProbeRecord, ProcessRecord, TestBoundaryRecord } from '../../contract/probe-log.js';
import { atScopeEnd, deletedWhileOpen, lastEndAmong, stackOf, type ProbeIndex } from './match.js';
import { exitOf, isProcessStart } from './process-threads.js';

export interface ProbeLeak {
  process: ProcessRecord;
  open: OpenRecord;
  /** The open as a stack lookup gives it (`test` and `heldPastTest: true` set). */
  stack: OpenStack;
  /** Its test's end, when the probe saw it still open. */
  testEndedAtMs: number;
  /** The last moment the probe saw it open: the process's exit when it was open then, else the test's end. */
  heldUntilMs: number;
  /** The watched dir (display form) it lies under. */
  watchedDir: string;
}

/** The identity of one recorded open, to tell which opens a scan's holder was already matched to. */
export function openIdentity(stack: Pick<OpenStack, 'pid' | 'atMs' | 'path' | 'fd'>): string {
  return `${stack.pid}\0${stack.atMs}\0${stack.path ?? ''}\0${stack.fd ?? ''}`;
}

export interface ProbeLeakQuery {
  /** The watched dir a recorded path lies under (display form), or null when under none. */
  watchedDirOf: (path: string) => string | null;
  /** A scan saw this open: matched to a holder's stack, or a holder of that process has its path. */
  seen: (stack: OpenStack) => boolean;
}

export function findProbeLeaks(index: ProbeIndex, query: ProbeLeakQuery): ProbeLeak[] {
  const leaks: ProbeLeak[] = [];
  for (const records of index.byPid.values()) for (const life of livesOf(records)) leaks.push(...leaksOf(life, query));
  return leaks.sort((a, b) => a.open.atMs - b.open.atMs);
}

interface Life {
  process: ProcessRecord;
  records: ProbeRecord[];
}

/** One pid's records (in time order) cut at each process's start: a pid reused is another life. */
function livesOf(records: readonly ProbeRecord[]): Life[] {
  const lives: Life[] = [];
  for (const record of records) {
    if (isProcessStart(record)) lives.push({ process: record, records: [] });
    else lives.at(-1)?.records.push(record);
  }
  return lives;
}

function leaksOf({ process, records }: Life, query: ProbeLeakQuery): ProbeLeak[] {
  // A test's end and its opens are written by the same flush, often in the same millisecond: every
  // open of the life is looked up, not only those sorted before the end.
  const opens = new Map<number, OpenRecord>();
  const scopeOpens: OpenRecord[] = [];
  // Every open by its id, whatever made it: a delete that met it open names it, test or no test.
  const byId = new Map<number, OpenRecord>();
  for (const r of records) {
    if (r.kind !== 'open' || r.id === undefined) continue;
    byId.set(r.id, r);
    if (r.test !== undefined || r.among !== undefined) opens.set(r.id, r);
    else if (r.scope) scopeOpens.push(r);
  }
  const exits = records.filter((r): r is ExitRecord => r.kind === 'exit');
  const deletes = records.filter((r): r is DeleteRecord => r.kind === 'delete');
  const closedAt = new Map<number, number>();
  for (const r of records) if (r.kind === 'close') closedAt.set(r.id, r.atMs);
  const leaks: ProbeLeak[] = [];
  const reported = new Set<number>();
  const report = (open: OpenRecord, endedAtMs: number, unlinked: boolean) => {
    const id = open.id!;
    if (reported.has(id)) return; // once, at its own test's end
    reported.add(id);
    const watchedDir = open.fd === null && !open.cwd ? null : query.watchedDirOf(open.path);
    const stack = {
      ...stackOf(open, process.runtime),
      heldPastTest: true,
      ...(unlinked ? { unlinkedWhileOpen: true } : {}),
      ...deletedWhileOpen(deletes, open),
    };
    if (watchedDir === null || query.seen(stack)) return;
    const exit = exitOf(exits, id);
    const lastSeenOpenAtMs = exit?.open.includes(id) ? exit.atMs : (closedAt.get(id) ?? Math.max(endedAtMs, open.atMs));
    leaks.push({ process, open, stack, testEndedAtMs: endedAtMs, heldUntilMs: lastSeenOpenAtMs, watchedDir });
  };
  const ends = records.filter((r): r is TestBoundaryRecord => r.kind === 'test' && r.event === 'end');
  // An open made while tests ran side by side is judged at the last of their ends only.
  const speaksFor = (open: OpenRecord, end: TestBoundaryRecord) => (open.test === undefined ? lastEndAmong(ends, open) === end : open.test === end.name);
  for (const end of ends) {
    for (const id of end.open ?? []) {
      const open = opens.get(id);
      if (open && speaksFor(open, end) && open.atMs <= end.atMs) report(open, end.atMs, (end.unlinked ?? []).includes(id));
    }
  }
  // An async open (a stream's) that got its fd only after its test ended: open past that test too. A
  // chdir is never late: one after its test ended was made after it (an exit handler's).
  for (const open of opens.values()) {
    if (open.cwd) continue;
    if (open.test === undefined) continue;
    const end = ends.filter((e) => e.name === open.test && e.atMs < open.atMs).at(-1);
    if (end && !ends.some((e) => e.name === open.test && e.atMs >= open.atMs)) report(open, end.atMs, (end.unlinked ?? []).includes(open.id!));
  }
  // Opens of a wider scope (beforeAll, a module's import) still open when that scope ended.
  for (const open of scopeOpens) {
    const { heldPastTest, unlinkedWhileOpen, endedAtMs } = atScopeEnd(ends, exits, open);
    if (heldPastTest && endedAtMs !== undefined) report(open, endedAtMs, unlinkedWhileOpen === true);
  }
  // Whatever the process deleted while it held it, closed by its scope's end or not: on Windows the
  // delete itself fails.
  for (const call of deletes) {
    for (const id of call.held) {
      const open = byId.get(id);
      if (open) report(open, call.atMs, true);
    }
  }
  return leaks;
}
