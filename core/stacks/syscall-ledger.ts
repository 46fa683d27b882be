// A syscall ledger (strace -f -ttt -y of a Go test binary, probes/go/exec) read as probe records, so
// the leaks no scan saw are found as a probe's are (probe-leaks.ts). The binary's own writes of
// `=== RUN` and `--- PASS` are in the same total order as its opens and closes: the test running at an
// open, and whether the fd was still open at that test's end and at the exit, are read, not guessed.
// Where tests ran side by side (t.Parallel) the ledger cannot tell which goroutine opened a file: the
// open names all of them (`among`) and no test. Pure: the ledger's text in, records out.
import type { DeleteRecord, OpenRecord, ProbeRecord, ProcessRecord, SpawnRecord, TestBoundaryRecord } from '../../contract/probe-log.js';
import { goTestMarks } from './go-test-marks.js';
import { chdirTarget, deletedPaths, resolveIn, stringAt } from './ledger-paths.js';
import { firstFd, firstStringArg, parseStraceLines, splitArgs, type TracedCall, type TracedEnd } from './strace-lines.js';

/** A ledger's file name in a run's probe log dir (probes/go/exec): `strace-<pid of the -exec program>-<ms>.ledger`. */
export const LEDGER_FILE_NAME = /^strace-(\d+)-\d+\.ledger$/;

export interface LedgerOptions {
  /** The traced program's parent as the run knows it (the ledger starts at the program's own exec). */
  parentPid?: number;
  /** Which opened paths to keep records of (the watched dirs); every absolute path by default. */
  keepPath?: (path: string) => boolean;
}

interface FdEntry {
  id: number;
  path: string;
  cloexec: boolean;
}

interface Life {
  process: ProcessRecord;
  fds: Map<number, FdEntry>;
  cwd: string | null;
  /** The open record of the working directory its chdir entered, while it is still there and kept. */
  cwdId: number | null;
  /** The clone that made this process, named by its exec once that comes. */
  spawn: SpawnRecord | null;
  exited: boolean;
  lastAtMs: number;
}

const OPENS = new Set(['open', 'openat', 'openat2', 'creat']);
const DUPS = new Set(['dup', 'dup2', 'dup3']);
const FORKS = new Set(['clone', 'clone3', 'fork', 'vfork']);
const CHDIRS = new Set(['chdir', 'fchdir']);
const DELETES = new Set(['unlink', 'unlinkat', 'rmdir', 'rename', 'renameat', 'renameat2']);

/**
 * Each thread's process (a clone with CLONE_THREAD joins its parent's, any other starts a process) and
 * each process's parent. Read before the replay: a child's first calls are often written before the
 * line on which its parent's clone returns.
 */
function familyOf(calls: readonly TracedCall[]): { processOf: (tid: number) => number; parentOf: (pid: number) => number | undefined } {
  const parent = new Map<number, { tid: number; thread: boolean }>();
  for (const c of calls) if (FORKS.has(c.name) && c.result !== null && c.result > 0) parent.set(c.result, { tid: c.tid, thread: /CLONE_THREAD/.test(c.args) });
  const processOf = (tid: number) => {
    let at = tid;
    for (let hops = 0; hops < 10_000; hops++) {
      const up = parent.get(at);
      if (!up?.thread) return at;
      at = up.tid;
    }
    return at;
  };
  const parentOf = (pid: number) => {
    const up = parent.get(pid);
    return up && !up.thread ? processOf(up.tid) : undefined;
  };
  return { processOf, parentOf };
}

/**
 * Go prints a subtest's `--- PASS` only with its parent's, but a parent's t.Run returns only once the
 * subtest ended or paused: when the parent starts the next one, each running sibling (and what runs
 * under it) has ended. Between a subtest's return and its next sibling's start, the parent's own calls
 * read as the subtest's.
 */
function isSiblingOrUnder(running: string, started: string): boolean {
  const parent = started.includes('/') ? started.slice(0, started.lastIndexOf('/') + 1) : '';
  return running !== started && running.startsWith(parent) && !started.startsWith(`${running}/`);
}

export function ledgerRecords(text: string, { parentPid = 0, keepPath = () => true }: LedgerOptions = {}): ProbeRecord[] {
  const lines = parseStraceLines(text);
  const calls = lines.filter((l): l is TracedCall => 'name' in l);
  const first = calls[0];
  if (!first) return [];
  const ledger = new LedgerReplay(familyOf(calls), first, parentPid, keepPath);
  for (const line of lines) {
    if ('name' in line) ledger.replay(line);
    else ledger.ended(line);
  }
  return ledger.finish();
}

/** The ledger's calls replayed in order: each process's fds, the tests running, and the records they make. */
class LedgerReplay {
  private readonly out: ProbeRecord[] = [];
  private readonly lives = new Map<number, Life>();
  private readonly openNow = new Map<number, { record: OpenRecord; pid: number; unlinked: boolean }>();
  private nextId = 1;
  /** Tests in the order they started, and which of them wait in t.Parallel (between PAUSE and CONT). */
  private readonly running: string[] = [];
  private readonly paused = new Set<string>();
  private readonly root: number;

  constructor(
    private readonly family: ReturnType<typeof familyOf>,
    first: TracedCall,
    private readonly parentPid: number,
    private readonly keepPath: (path: string) => boolean,
  ) {
    this.root = family.processOf(first.tid);
  }

  replay(call: TracedCall): void {
    const life = this.lifeOf(this.family.processOf(call.tid), call);
    life.lastAtMs = call.atMs;
    const cwd = /^AT_FDCWD<(.*?)>/.exec(call.args)?.[1];
    if (cwd !== undefined) life.cwd = cwd;
    const ok = call.result !== null && call.result >= 0;
    if (call.name === 'execve' && call.result === 0) {
      const argv = splitArgs(call.args)[1];
      if (argv?.startsWith('[')) life.process.argv = splitArgs(argv.slice(1, -1)).map((a) => firstStringArg(a) ?? a);
      if (life.spawn?.executable === null) Object.assign(life.spawn, { executable: stringAt(call.args, 0), argv: [...life.process.argv] });
      for (const [fd, entry] of [...life.fds.entries()]) if (entry.cloexec) this.close(life, call, fd);
    } else if (OPENS.has(call.name) && ok) {
      const path = call.resultPath ?? stringAt(call.args, call.name === 'open' || call.name === 'creat' ? 0 : 1);
      if (path !== null) this.open(life, call, call.result!, resolveIn(life.cwd, path) ?? path, /O_CLOEXEC/.test(call.args), call.name);
    } else if (call.name === 'close') {
      const fd = life.fds.size === 0 ? null : firstFd(call.args);
      if (fd !== null) this.close(life, call, fd);
    } else if ((DUPS.has(call.name) || (call.name === 'fcntl' && /F_DUPFD/.test(call.args))) && ok) {
      const from = life.fds.get(firstFd(call.args) ?? -1);
      if (from) this.open(life, call, call.result!, from.path, /O_CLOEXEC|F_DUPFD_CLOEXEC/.test(call.args), call.name);
    } else if (call.name === 'fcntl' && /F_SETFD/.test(call.args) && ok) {
      const entry = life.fds.get(firstFd(call.args) ?? -1);
      if (entry) entry.cloexec = /FD_CLOEXEC/.test(call.args);
    } else if (FORKS.has(call.name) && ok && call.result! > 0 && !/CLONE_THREAD/.test(call.args)) this.spawned(life, call);
    else if (CHDIRS.has(call.name) && call.result === 0) this.chdir(life, call);
    else if (DELETES.has(call.name) && call.result === 0) this.deleted(call, life);
    else if (call.name === 'exit_group') this.exit(life, call.atMs);
    else if (call.name === 'write') this.mark(call, life);
  }

  /**
   * A thread's end line. A signal that kills one thread kills its whole process, and strace reports it
   * (`+++ killed by SIGKILL +++`) before the parent's wait returns: the process's holdings end here, in
   * order, not at the ledger's end. A thread that exits (`+++ exited with 0 +++`) ends only itself.
   */
  ended(end: TracedEnd): void {
    const life = this.lives.get(this.family.processOf(end.tid));
    if (life && end.end === 'killed') this.exit(life, end.atMs);
  }

  finish(): ProbeRecord[] {
    // A process whose end the ledger does not tell (strace itself killed): its holdings ended with its last call.
    for (const life of this.lives.values()) this.exit(life, life.lastAtMs);
    return this.out;
  }

  private lifeOf(pid: number, call: TracedCall): Life {
    const known = this.lives.get(pid);
    if (known) return known;
    const ppid = this.family.parentOf(pid);
    const from = ppid === undefined ? undefined : this.lives.get(ppid);
    const process: ProcessRecord = {
      v: 1,
      kind: 'process',
      runtime: 'strace',
      pid,
      ppid: ppid ?? this.parentPid,
      atMs: call.atMs,
      argv: [...(from?.process.argv ?? [])],
      cwd: from?.cwd ?? null,
    };
    const life: Life = { process, fds: new Map(), cwd: from?.cwd ?? null, cwdId: null, spawn: null, exited: false, lastAtMs: call.atMs };
    this.lives.set(pid, life);
    this.out.push(process);
    // A new process starts with a copy of its parent's fd table and its working directory: its own holdings.
    for (const [fd, entry] of from?.fds ?? []) this.open(life, call, fd, entry.path, entry.cloexec, 'inherited');
    if (from && from.cwdId !== null && from.cwd !== null) this.enter(life, call, from.cwd, 'inherited');
    return life;
  }

  /**
   * A new process: a spawn record with the test running at the clone, so the child's test is read
   * from the ledger, not guessed from when a scan dated its start. Its exec names it later.
   */
  private spawned(parent: Life, call: TracedCall): void {
    const child = this.lifeOf(call.result!, call);
    if (child.spawn) return;
    const { test } = this.testNow();
    child.spawn = {
      v: 1,
      kind: 'spawn',
      pid: parent.process.pid,
      atMs: call.atMs,
      api: call.name,
      executable: null,
      argv: [],
      cwd: parent.cwd,
      childPid: child.process.pid,
      ...(test === undefined ? {} : { test }),
      frames: [],
    };
    this.out.push(child.spawn);
  }

  /** A working directory left and one entered: the old one's record closes, the new one's opens. */
  private chdir(life: Life, call: TracedCall): void {
    const target = chdirTarget(call, life.cwd, (fd) => life.fds.get(fd)?.path);
    this.leaveCwd(life, call);
    life.cwd = target;
    if (target !== null) this.enter(life, call, target, call.name);
  }

  /** The working directory as an open with no fd (as the Node probe records process.chdir): on Windows it is a handle. */
  private enter(life: Life, call: { atMs: number }, path: string, api: string): void {
    if (!this.keepPath(path)) return;
    const id = this.nextId++;
    const record: OpenRecord = {
      v: 1,
      kind: 'open',
      pid: life.process.pid,
      atMs: call.atMs,
      api,
      path,
      fd: null,
      id,
      cwd: true,
      ...this.testNow(),
      frames: [],
    };
    life.cwdId = id;
    this.openNow.set(id, { record, pid: life.process.pid, unlinked: false });
    this.out.push(record);
  }

  private leaveCwd(life: Life, call: { atMs: number }): void {
    if (life.cwdId === null) return;
    this.openNow.delete(life.cwdId);
    this.out.push({ v: 1, kind: 'close', pid: life.process.pid, atMs: call.atMs, id: life.cwdId, fd: null });
    life.cwdId = null;
  }

  /** The test that made a call now: the one running test no running subtest of which runs too. */
  private testNow(): Pick<OpenRecord, 'test' | 'among'> {
    const active = this.running.filter((t) => !this.paused.has(t));
    const leaves = active.filter((t) => !active.some((u) => u.startsWith(`${t}/`)));
    if (leaves.length === 1) return { test: leaves[0]! };
    return leaves.length > 1 ? { among: leaves } : {};
  }

  private open(life: Life, call: TracedCall, fd: number, path: string, cloexec: boolean, api: string): void {
    this.close(life, call, fd);
    if (!path.startsWith('/') || !this.keepPath(path)) return;
    const id = this.nextId++;
    const record: OpenRecord = { v: 1, kind: 'open', pid: life.process.pid, atMs: call.atMs, api, path, fd, id, ...this.testNow(), frames: [] };
    life.fds.set(fd, { id, path, cloexec });
    this.openNow.set(id, { record, pid: life.process.pid, unlinked: false });
    this.out.push(record);
  }

  private close(life: Life, call: { atMs: number }, fd: number): void {
    const entry = life.fds.get(fd);
    if (!entry) return;
    life.fds.delete(fd);
    this.openNow.delete(entry.id);
    this.out.push({ v: 1, kind: 'close', pid: life.process.pid, atMs: call.atMs, id: entry.id, fd });
  }

  private exit(life: Life, atMs: number): void {
    if (life.exited) return;
    life.exited = true;
    const open = [...life.fds.values()].map((e) => e.id).concat(life.cwdId === null ? [] : [life.cwdId]);
    this.out.push({ v: 1, kind: 'exit', pid: life.process.pid, atMs, open });
    // No close records: a scan may still read these fds while the kernel tears the process down (strace
    // holds it at its exit_group), and must find them open, as the exit record says.
    for (const id of open) this.openNow.delete(id);
    life.fds.clear();
    life.cwdId = null;
  }

  private mark(call: TracedCall, life: Life): void {
    if (life.process.pid !== this.root || firstFd(call.args) !== 1 || call.result === null || call.result <= 0) return;
    for (const { mark, test } of goTestMarks(firstStringArg(call.args) ?? '')) {
      if (mark === 'pause') this.paused.add(test);
      else if (mark === 'cont') this.paused.delete(test);
      else if (mark === 'run') {
        for (const done of this.running.filter((t) => !this.paused.has(t) && isSiblingOrUnder(t, test))) this.end(done, call.atMs);
        this.running.push(test);
        this.out.push({ v: 1, kind: 'test', pid: this.root, atMs: call.atMs, event: 'start', name: test });
      } else this.end(test, call.atMs);
    }
  }

  private end(test: string, atMs: number): void {
    const at = this.running.lastIndexOf(test);
    if (at === -1) return; // ended already, when its next sibling started
    this.running.splice(at, 1);
    this.paused.delete(test);
    this.out.push(...this.testEnds(test, atMs));
  }

  /** A test's end, told in the binary and in each process holding an open of that test: each life is read alone. */
  private testEnds(test: string, atMs: number): TestBoundaryRecord[] {
    const mine = [...this.openNow.entries()].filter(([, { record }]) => record.test === test || record.among?.includes(test));
    return [...new Set([this.root, ...mine.map(([, o]) => o.pid)])].map((pid) => {
      const held = mine.filter(([, o]) => o.pid === pid);
      const unlinked = held.filter(([, o]) => o.unlinked).map(([id]) => id);
      return { v: 1, kind: 'test', pid, atMs, event: 'end', name: test, open: held.map(([id]) => id), ...(unlinked.length > 0 ? { unlinked } : {}) };
    });
  }

  private deleted(call: TracedCall, life: Life): void {
    if (this.openNow.size === 0) return; // a delete is recorded only where it hits a held path
    for (const path of deletedPaths(call, life.cwd)) {
      const held = [...this.openNow.entries()].filter(([, o]) => o.record.path === path || o.record.path.startsWith(`${path}/`));
      for (const [, o] of held) o.unlinked = true;
      // Recorded in each holding process's own life: that is where its open is looked up.
      for (const pid of new Set(held.map(([, o]) => o.pid))) {
        const api = pid === life.process.pid ? call.name : `${call.name} (pid ${life.process.pid})`;
        const ids = held.filter(([, o]) => o.pid === pid).map(([id]) => id);
        const { test } = this.testNow();
        const record: DeleteRecord = {
          v: 1,
          kind: 'delete',
          pid,
          atMs: call.atMs,
          api,
          path,
          held: ids,
          cwd: held.some(([, o]) => o.pid === pid && o.record.cwd === true),
          ...(test === undefined ? {} : { test }),
          frames: [],
        };
        this.out.push(record);
      }
    }
  }
}
