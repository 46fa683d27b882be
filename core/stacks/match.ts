// Pairs what a scan saw (a holder, a process) with what the probes recorded inside the processes.
// Pure: records in, a StackLookup out. Identity is (pid, start time): pids are reused, so only
// records made during the process's life count.
import type { HolderKind } from '../../contract/holders.js';
import type { DeletedBy, OpenStack, StackLookup } from '../../contract/stacks.js';
import type { PathStyle } from '../paths.js';
import { POSIX_STYLE, foldDots } from '../paths.js';
import type {
  DeleteRecord,
  ExitRecord,
  OpenRecord,
  ProbeRecord,
  ProbeRuntime,
  ProcessRecord,
  SpawnRecord,
  TestBoundaryRecord,
} from '../../contract/probe-log.js';
import { exitOf, isProcessStart } from './process-threads.js';

export const NOT_PROBED = 'no open stack: not a probed runtime (python/node)';

/** What the matcher needs of a holder (a contract Holder plus when it was first seen). */
export interface HolderRef {
  pid: number;
  processStartedAtMs: number;
  kind: HolderKind;
  path: string;
  /** `fd 7` on Linux; other forms (Windows handle values) never match a probe's fd. */
  handle: string | null;
  firstSeenAtMs: number;
  /**
   * When the scan that first saw it began (firstSeenAtMs is its end): an open the code closed between
   * the two may be the one it read. Without it, the sighting is taken as the moment.
   */
  seenFromMs?: number;
  /** Parent first, then its parent...: an fd inherited from a probed ancestor gets that ancestor's open. */
  ancestorPids?: number[];
}

/** What the matcher needs of a process (a contract ProcessInfo). */
export interface ProcessRef {
  pid: number;
  ppid: number;
  startedAtMs: number;
  /** The command line as scanned; picks among several pid-less spawns of the parent in the window. */
  commandLine?: string;
  /** Parent first: when the parent was a shell, the probed process that started the shell answers. */
  ancestorPids?: number[];
}

export interface MatchOptions {
  /** Path comparison rules; POSIX by default. */
  style?: PathStyle;
  /** The caller's path canonicaliser (realpath, 8.3 expansion): the probes record paths as the code named them. */
  canonical?: (path: string) => string;
  /**
   * Slack between the probes' clock readings and the scanner's (both wall clock, but process start
   * times come from the OS with coarser ticks, e.g. /proc's 10 ms jiffies plus boot-time rounding).
   */
  clockSlackMs?: number;
  /** How long after a spawn call its child may start and still be taken for it (pid reuse guard). */
  maxSpawnLatencyMs?: number;
}

const DEFAULT_SLACK_MS = 1000;
const DEFAULT_SPAWN_LATENCY_MS = 60_000;

interface ProcessLife {
  process: ProcessRecord;
  opens: OpenRecord[];
  closedIds: Map<number, number>;
  /** The calls of this life that deleted a path while it held something there. */
  deletes: DeleteRecord[];
  /** The test ends the probe wrote in this process, to its very end (they may come after the holder was first seen). */
  testEnds: TestBoundaryRecord[];
  /** The process's exit, and its worker threads', where the probe wrote them: the end of every scope that reported none. */
  exits: ExitRecord[];
}

/** Records grouped by pid, for many lookups over one run's logs. Build once with indexProbeRecords. */
export interface ProbeIndex {
  byPid: Map<number, ProbeRecord[]>;
  spawnsByChild: Map<number, SpawnRecord[]>;
  spawnsByParent: Map<number, SpawnRecord[]>;
}

export function indexProbeRecords(records: Iterable<ProbeRecord>): ProbeIndex {
  const index: ProbeIndex = { byPid: new Map(), spawnsByChild: new Map(), spawnsByParent: new Map() };
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const record of records) {
    push(index.byPid, record.pid, record);
    if (record.kind === 'spawn') {
      if (record.childPid !== null) push(index.spawnsByChild, record.childPid, record);
      push(index.spawnsByParent, record.pid, record);
    }
  }
  for (const list of index.byPid.values()) list.sort((a, b) => a.atMs - b.atMs);
  return index;
}

function asIndex(records: ProbeIndex | Iterable<ProbeRecord>): ProbeIndex {
  return records instanceof Object && 'byPid' in records ? records : indexProbeRecords(records);
}

/** The probed life of (pid, started at): its records from its start to `untilMs`. */
function lifeOf(index: ProbeIndex, pid: number, startedAtMs: number, untilMs: number, slackMs: number): ProcessLife | null {
  const all = (index.byPid.get(pid) ?? []).filter((r) => r.atMs >= startedAtMs - slackMs);
  const records = all.filter((r) => r.atMs <= untilMs + slackMs);
  const process = records.find(isProcessStart);
  if (!process) return null;
  const opens = records.filter((r): r is OpenRecord => r.kind === 'open' || r.kind === 'connect');
  const closedIds = new Map<number, number>();
  for (const r of records) if (r.kind === 'close') closedIds.set(r.id, r.atMs);
  // Up to the next process with this pid (a reuse): its tests are not this one's.
  const reusedAt = all.find((r) => isProcessStart(r) && r !== process && r.atMs > process.atMs)?.atMs ?? Infinity;
  const testEnds = all.filter((r): r is TestBoundaryRecord => r.kind === 'test' && r.event === 'end' && r.atMs < reusedAt);
  const deletes = all.filter((r): r is DeleteRecord => r.kind === 'delete' && r.atMs < reusedAt);
  const exits = all.filter((r): r is ExitRecord => r.kind === 'exit' && r.atMs < reusedAt);
  return { process, opens, closedIds, testEnds, deletes, exits };
}

/**
 * What the probe saw of this open when the test that made it ended: whether it was still open, and
 * whether its file was unlinked by then. Nothing when that end was never written (no runner told the
 * probe, or the process died first).
 */
function atTestEnd(life: ProcessLife, record: OpenRecord): Pick<OpenStack, 'heldPastTest' | 'unlinkedWhileOpen'> {
  if (record.id === undefined) return {};
  if (record.test === undefined && record.among === undefined) {
    const { heldPastTest, unlinkedWhileOpen } = atScopeEnd(life.testEnds, life.exits, record);
    return { ...(heldPastTest === undefined ? {} : { heldPastTest }), ...(unlinkedWhileOpen ? { unlinkedWhileOpen } : {}) };
  }
  // The test's end after the call; an async open (a stream's) may get its fd only after that end:
  // then it was open past its test by definition. (The record is dated when the fd came.)
  const end = record.test === undefined ? lastEndAmong(life.testEnds, record) : endOfTest(life.testEnds, record.test, record.atMs);
  if (!end) return {};
  const unlinked = (end.unlinked ?? []).includes(record.id);
  const openedAfterEnd = !record.cwd && record.atMs > end.atMs;
  return { heldPastTest: openedAfterEnd || (end.open ?? []).includes(record.id), ...(unlinked ? { unlinkedWhileOpen: true } : {}) };
}

function endOfTest(testEnds: readonly TestBoundaryRecord[], test: string, atMs: number): TestBoundaryRecord | undefined {
  const ends = testEnds.filter((e) => e.name === test);
  return ends.find((e) => e.atMs >= atMs) ?? ends.at(-1);
}

/**
 * An open made while several tests ran side by side (the record's `among`) outlived its own test for
 * sure only when it was still open at the last of their ends: that end is the one that speaks for it.
 */
export function lastEndAmong(testEnds: readonly TestBoundaryRecord[], record: OpenRecord): TestBoundaryRecord | undefined {
  if (!record.among) return undefined;
  const ends = record.among.map((test) => endOfTest(testEnds, test, record.atMs));
  if (ends.some((e) => e === undefined)) return undefined; // one of them never ended: no verdict from here
  return (ends as TestBoundaryRecord[]).reduce((last, e) => (e.atMs > last.atMs ? e : last));
}

/**
 * What the probe saw of an open made outside any test when its scope ended (the suite's or file's end
 * it wrote, after that scope's after/afterAll hooks; else the process's exit): whether it was open then.
 */
export function atScopeEnd(
  ends: readonly TestBoundaryRecord[],
  exits: readonly ExitRecord[],
  record: OpenRecord,
): Pick<OpenStack, 'heldPastTest' | 'unlinkedWhileOpen'> & { endedAtMs?: number } {
  const id = record.id;
  const scope = record.scope;
  if (id === undefined || !scope) return {};
  const end = ends.find((e) => e.scope !== undefined && e.name === scope.name && e.atMs >= record.atMs);
  if (end) {
    const unlinked = (end.unlinked ?? []).includes(id);
    return { heldPastTest: (end.open ?? []).includes(id), endedAtMs: end.atMs, ...(unlinked ? { unlinkedWhileOpen: true } : {}) };
  }
  const exit = exitOf(exits, id);
  return exit ? { heldPastTest: exit.open.includes(id), endedAtMs: exit.atMs } : {};
}

/**
 * The first call of the process that deleted this open's file, or a dir above it, while it was open
 * (the probe's delete record): on Windows, the call that fails.
 */
export function deletedWhileOpen(deletes: readonly DeleteRecord[], record: OpenRecord): Pick<OpenStack, 'unlinkedWhileOpen' | 'deletedBy'> {
  const id = record.id;
  if (id === undefined) return {};
  const call = deletes.find((d) => d.held.includes(id));
  return call ? { unlinkedWhileOpen: true, deletedBy: { api: call.api, atMs: call.atMs, path: call.path, frames: call.frames } } : {};
}

/**
 * The first delete of a probed ancestor that met this holding while the holder's process, the
 * ancestor's live child, held it (the delete record's `children`, read from /proc by the ancestor's
 * probe just before the call): on Windows, that call fails on the child's handle or working directory.
 */
export function deletedUnderChild(holder: HolderRef, records: ProbeIndex | Iterable<ProbeRecord>, options: MatchOptions = {}): DeletedBy | undefined {
  if (holder.kind !== 'cwd' && holder.kind !== 'file' && holder.kind !== 'dir') return undefined;
  const index = asIndex(records);
  const style = options.style ?? POSIX_STYLE;
  const key = (p: string) => normalize(options.canonical ? options.canonical(p) : p, style);
  const wanted = key(holder.path.replace(/ \(deleted\)$/, ''));
  const fd = holder.kind === 'cwd' ? null : parseFd(holder.handle);
  if (holder.kind !== 'cwd' && fd === null) return undefined;
  // Made during the holder's life: a record naming an earlier process with the same pid is not it.
  const since = holder.processStartedAtMs - (options.clockSlackMs ?? DEFAULT_SLACK_MS);
  const names = (d: DeleteRecord) => d.atMs >= since && (d.children ?? []).some((c) => c.pid === holder.pid && c.fd === fd && key(c.path) === wanted);
  for (const ancestor of holder.ancestorPids ?? []) {
    const call = (index.byPid.get(ancestor) ?? []).find((r): r is DeleteRecord => r.kind === 'delete' && names(r));
    if (call) return { api: call.api, atMs: call.atMs, path: call.path, frames: call.frames, pid: call.pid };
  }
  return undefined;
}

function normalize(path: string, style: PathStyle): string {
  const folded = foldDots(path, style);
  return style.caseInsensitive ? folded.toLowerCase() : folded;
}

/** SQLite keeps its journal files next to the database: they belong to the same connect. */
const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'];

/** A recorded call as the contract's OpenStack (without what only the process's whole life tells). */
export function stackOf(record: OpenRecord | SpawnRecord, runtime: ProbeRuntime): OpenStack {
  return toStack(record, runtime);
}

function toStack(record: OpenRecord | SpawnRecord, runtime: ProbeRuntime, life?: ProcessLife): OpenStack {
  const spawn = record.kind === 'spawn';
  const ended = !spawn && life ? { ...atTestEnd(life, record), ...deletedWhileOpen(life.deletes, record) } : {};
  return {
    kind: record.kind,
    runtime,
    pid: record.pid,
    atMs: record.atMs,
    ...(record.test !== undefined ? { test: record.test } : {}),
    ...(!spawn && record.scope ? { scope: record.scope } : {}),
    ...(!spawn && record.listed ? { listed: true } : {}),
    ...(!spawn && record.among !== undefined ? { ambiguousAmong: record.among } : {}),
    ...ended,
    api: record.api,
    path: spawn ? null : record.path,
    fd: spawn ? null : record.fd,
    argv: spawn ? record.argv : null,
    childPid: spawn ? record.childPid : null,
    frames: record.frames,
  };
}

function isOpenAt(life: ProcessLife, record: OpenRecord, atMs: number): boolean {
  if (record.id === undefined) return true;
  const closedAt = life.closedIds.get(record.id);
  return closedAt === undefined || closedAt > atMs;
}

function parseFd(handle: string | null): number | null {
  const m = handle === null ? null : /^fd (\d+)$/.exec(handle);
  return m ? Number(m[1]) : null;
}

/**
 * The open-time stack of a holder: in the holder's process, by fd when both sides know it, else the
 * latest open of that path before the holder was first seen; then the same in its probed ancestors
 * (an inherited fd). Native and unprobed processes get NOT_PROBED.
 */
export function matchOpenStack(holder: HolderRef, records: ProbeIndex | Iterable<ProbeRecord>, options: MatchOptions = {}): StackLookup {
  if (holder.kind === 'cwd' || holder.kind === 'mmap') return matchNotAnFd(holder, asIndex(records), options);
  if (holder.kind !== 'file' && holder.kind !== 'dir') {
    return { found: false, reason: `no open stack: a ${holder.kind} holding is not made by a call the probes record` };
  }
  const index = asIndex(records);
  const style = options.style ?? POSIX_STYLE;
  const slack = options.clockSlackMs ?? DEFAULT_SLACK_MS;
  const key = (p: string) => normalize(options.canonical ? options.canonical(p) : p, style);
  const wanted = key(holder.path);
  const until = holder.firstSeenAtMs;
  const seenFrom = Math.min(holder.seenFromMs ?? until, until);
  const own = lifeOf(index, holder.pid, holder.processStartedAtMs, until, slack);

  const samePath = (r: OpenRecord) => key(r.path) === wanted;
  const sidePath = (r: OpenRecord) => r.kind === 'connect' && SQLITE_SIDE_FILES.some((suffix) => key(r.path + suffix) === wanted);
  const holderFd = parseFd(holder.handle);
  // A record that names another fd is another handle's open (two handles on one file): not this one's.
  const otherFd = (r: OpenRecord) => holderFd !== null && r.fd !== null && r.fd !== holderFd && samePath(r);
  const byPath = (life: ProcessLife, madeOnly = false): OpenRecord | undefined => {
    for (let i = life.opens.length - 1; i >= 0; i--) {
      const r = life.opens[i]!;
      if (madeOnly && r.listed) continue;
      if (isOpenAt(life, r, seenFrom) && (samePath(r) || sidePath(r)) && !otherFd(r)) return r;
    }
    return undefined;
  };

  if (own) {
    const fd = holderFd;
    // A descriptor the process found in its own list (at a delete, a boundary) is a sighting, not its open.
    let sighting: OpenRecord | undefined;
    if (fd !== null) {
      for (let i = own.opens.length - 1; i >= 0; i--) {
        const r = own.opens[i]!;
        if (r.fd === fd) {
          // The Python probe predicts the fd (the lowest free one): believed only for the same file.
          if (isOpenAt(own, r, seenFrom) && samePath(r)) {
            if (!r.listed) return { found: true, stack: toStack(r, own.process.runtime, own), matchedBy: 'fd', viaPid: null };
            sighting = r;
          }
          break; // the latest use of this fd was closed, or was another file: a later, unrecorded open reused it
        }
      }
    }
    // The Python probe leaves the fd off a path's first open: a recorded open of the path, still open and
    // naming no other fd, made the descriptor the list found, and a delete that met the sighting met it.
    const r = byPath(own, sighting !== undefined);
    if (r) {
      const stack = toStack(r, own.process.runtime, own);
      return { found: true, stack: sighting ? { ...stack, ...deletedWhileOpen(own.deletes, sighting) } : stack, matchedBy: 'path', viaPid: null };
    }
    if (sighting) return { found: true, stack: toStack(sighting, own.process.runtime, own), matchedBy: 'fd', viaPid: null };
  }
  // An fd inherited across fork/exec (a Popen stdout redirected to a file) was opened by an ancestor.
  for (const ancestor of holder.ancestorPids ?? []) {
    const life = lifeOf(index, ancestor, -Infinity, until, slack);
    const r = life ? byPath(life) : undefined;
    if (life && r) return { found: true, stack: toStack(r, life.process.runtime, life), matchedBy: 'path', viaPid: ancestor };
  }
  if (!own) return { found: false, reason: NOT_PROBED };
  return {
    found: false,
    reason: `no open stack: the ${own.process.runtime} probe in pid ${holder.pid} recorded no open of this path (opened before the probe started, by native code, or inherited)`,
  };
}

/**
 * A holding that is no descriptor: a working directory (the process's own chdir there, still its cwd
 * when first seen) or a memory map (the latest mmap of that file: a map has no close the probes see).
 */
function matchNotAnFd(holder: HolderRef, index: ProbeIndex, options: MatchOptions): StackLookup {
  const style = options.style ?? POSIX_STYLE;
  const key = (p: string) => normalize(options.canonical ? options.canonical(p) : p, style);
  const own = lifeOf(index, holder.pid, holder.processStartedAtMs, holder.firstSeenAtMs, options.clockSlackMs ?? DEFAULT_SLACK_MS);
  if (!own) return { found: false, reason: NOT_PROBED };
  const seenFrom = Math.min(holder.seenFromMs ?? holder.firstSeenAtMs, holder.firstSeenAtMs);
  const cwd = holder.kind === 'cwd';
  const made = own.opens.findLast((r) => (cwd ? r.cwd === true : r.mmap === true) && key(r.path) === key(holder.path) && isOpenAt(own, r, seenFrom));
  if (made) return { found: true, stack: toStack(made, own.process.runtime, own), matchedBy: 'path', viaPid: null };
  const what = cwd ? 'the working directory was set' : 'the map was made';
  return { found: false, reason: `no open stack: ${what} before the probe started, by native code, or inherited` };
}

/** Loose: the scanner quotes arguments its own way, so compare the words. */
function sameCommand(argv: string[], commandLine: string): boolean {
  const words = commandLine.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
  const recorded = argv.join(' ').split(/\s+/);
  return recorded.length === words.length && recorded.every((w, i) => w === words[i]);
}

/**
 * The spawn-time stack of a process: the probed call that started it, by its pid when the probe knew
 * it (Popen, ChildProcess), else the parent's latest pid-less spawn before it started (os.system,
 * execSync), else its own fork record; then the same for its ancestors (a shell between them).
 */
export function matchSpawnStack(process: ProcessRef, records: ProbeIndex | Iterable<ProbeRecord>, options: MatchOptions = {}): StackLookup {
  const index = asIndex(records);
  const slack = options.clockSlackMs ?? DEFAULT_SLACK_MS;
  const latency = options.maxSpawnLatencyMs ?? DEFAULT_SPAWN_LATENCY_MS;
  const runtimeOf = (pid: number): ProbeRuntime => {
    const p = (index.byPid.get(pid) ?? []).find(isProcessStart);
    return p?.runtime ?? 'python';
  };
  const inWindow = (r: SpawnRecord, startedAtMs: number) => r.atMs <= startedAtMs + slack && r.atMs >= startedAtMs - latency;
  const latest = (list: SpawnRecord[]) => list.reduce<SpawnRecord | undefined>((best, r) => (!best || r.atMs > best.atMs ? r : best), undefined);

  const direct = (pid: number, ppid: number | null, startedAtMs: number): StackLookup | null => {
    const byChild = latest((index.spawnsByChild.get(pid) ?? []).filter((r) => r.pid !== pid && inWindow(r, startedAtMs)));
    if (byChild) return { found: true, stack: toStack(byChild, runtimeOf(byChild.pid)), matchedBy: 'child-pid', viaPid: null };
    if (ppid !== null) {
      const candidates = (index.spawnsByParent.get(ppid) ?? []).filter((r) => r.childPid === null && inWindow(r, startedAtMs));
      const sameArgv = process.commandLine === undefined ? [] : candidates.filter((r) => sameCommand(r.argv, process.commandLine!));
      const byParent = latest(sameArgv.length > 0 ? sameArgv : candidates);
      if (byParent) return { found: true, stack: toStack(byParent, runtimeOf(ppid)), matchedBy: 'parent-argv', viaPid: null };
    }
    const forked = latest((index.spawnsByChild.get(pid) ?? []).filter((r) => r.pid === pid && r.atMs >= startedAtMs - slack));
    if (forked) return { found: true, stack: toStack(forked, runtimeOf(pid)), matchedBy: 'fork', viaPid: null };
    return null;
  };

  const own = direct(process.pid, process.ppid, process.startedAtMs);
  if (own) return own;
  const chain = process.ancestorPids ?? [];
  for (let i = 0; i < chain.length; i++) {
    // An ancestor's start time is not known here: it started no later than this process.
    const found = direct(chain[i]!, chain[i + 1] ?? null, process.startedAtMs);
    if (found && found.found) return { ...found, viaPid: chain[i]! };
  }
  // A probed parent does not mean a probed call: node --test starts its workers from Node's internals.
  return { found: false, reason: "no spawn stack: no probe saw the call that started it (holdwatch, a shell or a runner's internals made it)" };
}
