// DEMO ONLY — a fake backend that invents holders, for the 20,000-row volume measurement and for
// screenshots. Enabled only by `?demo=<count>` in the URL; it never touches a real process.
import type { Holder, WatchEvent } from '../../contract/holders.js';
import type { CapturedLiveStack } from '../../contract/live-stack.js';
import type { ActiveRun, AttributedHolder, RunEvent, RunRecord } from '../../contract/runs.js';
import type { ProcessDetails } from '../../contract/details.js';
import type { CloseHandleRequestDto, HoldwatchService, LiveStackRequestDto, WatchStatus } from '../../contract/service.js';

type Listener<A extends unknown[]> = (...args: A) => void;

const DEFAULT_DIR = '/demo';
/** The performance entry that says how long the demo took to invent the holders it has ready (bench/ui-volume.ts prints it). */
const DEMO_HOLDERS_MEASURE = 'holdwatch-demo: holders invented';

export function demoHolders(count: number, dir: string, atMs: number): Holder[] {
  const names = ['python3', 'node', 'java', 'bash', 'go', 'pytest', 'sqlite3', 'indexer'];
  const kinds = ['file', 'dir', 'cwd', 'mmap'] as const;
  return Array.from({ length: count }, (_, i) => ({
    pid: 10_000 + (i % 5000),
    ppid: 1,
    processStartedAtMs: atMs - 60_000,
    processName: names[i % names.length]!,
    commandLine: `${names[i % names.length]} demo-${i}`,
    user: 'demo',
    kind: kinds[i % kinds.length]!,
    path: `${dir}/demo/shard-${i % 97}/file-${i}.dat`,
    deleted: i % 50 === 0,
    // Windows shows handle values (what Close handle takes), Linux fds.
    handle: /^[A-Za-z]:\\/.test(dir) ? `0x${(0x40 + 4 * (i % 1000)).toString(16)}` : `fd ${3 + (i % 1000)}`,
    watchedDir: dir,
  }));
}

/** One invented terminal run: a pytest whose first test's teardown is blocked by the file it left open. */
export function demoTerminalRun(nowMs: number): { active: ActiveRun; history: RunEvent[]; record: RunRecord } {
  const at = (s: number) => new Date(nowMs - 90_000 + s * 1000).toISOString();
  const [t1, t2] = ['tests/test_export.py::test_writes_report', 'tests/test_export.py::test_cleans_up'];
  const active: ActiveRun = {
    runId: 'demo-terminal',
    command: ['pytest', '-x', 'tests'],
    cwd: '/demo/project',
    watched: ['/demo'],
    startedAt: at(0),
    pid: 4242,
  };
  const holder: AttributedHolder = {
    ...demoHolders(1, '/demo', nowMs)[0]!,
    pid: 4300,
    processName: 'python3',
    commandLine: 'python3 -m pytest -x tests',
    path: '/demo/work/report.csv',
    deleted: false,
    attribution: { spawnedDuring: null, firstSeenDuring: t1, verdict: 'blocked-cleanup', ancestry: [], firstSeenAt: at(2), lastSeenAt: at(9) },
  };
  const failure = {
    at: at(4),
    text: "PermissionError: [WinError 32] ... '/demo/work/report.csv'",
    path: '/demo/work',
    kind: 'sharing-violation',
    code: 32,
    test: t1,
    holders: [holder],
  };
  const test = (type: 'test-start' | 'test-end', name: string, s: number, outcome?: 'error' | 'passed'): RunEvent => ({
    type: 'test',
    event: { type, name, atMs: Date.parse(at(s)), ...(outcome ? { outcome } : {}) },
  });
  const tests = [
    { name: t1, startedAt: at(1), endedAt: at(4), outcome: 'error' as const, phase: 'teardown' as const },
    { name: t2, startedAt: at(5), endedAt: at(9), outcome: 'passed' as const },
  ];
  const { runId, command, cwd, watched, startedAt } = active;
  const record: RunRecord = {
    runId,
    command,
    cwd,
    watched,
    startedAt,
    platform: 'linux',
    exitCode: null,
    endedAt: null,
    tests,
    holders: [holder],
    failures: [failure],
    leftovers: [],
    versions: { holdwatch: 'demo', node: 'demo', os: 'demo' },
  };
  const history: RunEvent[] = [
    { type: 'started', command: active.command, cwd: active.cwd, watched: active.watched },
    test('test-start', t1, 1),
    { type: 'holder', change: 'appeared', at: at(2), holder },
    test('test-end', t1, 4, 'error'),
    { type: 'failure', failure },
    test('test-start', t2, 5),
    test('test-end', t2, 9, 'passed'),
    { type: 'record', record },
  ];
  return { active, history, record };
}

export class DemoService implements HoldwatchService {
  private readonly watch = new Set<Listener<[string, readonly WatchEvent[]]>>();
  private readonly status = new Set<Listener<[string, WatchStatus]>>();
  private readonly run = new Set<Listener<[string, RunEvent]>>();

  private readonly terminalRun = demoTerminalRun(Date.now());
  /** A `C:\...` dir makes the demo a Windows host: its live stack is a minidump and a thread list. */
  private windows = false;
  private holders: Holder[] = [];
  private readonly closed = new Set<Holder>();
  /**
   * The first watch's holders of the default dir, invented before it is asked for: a real host's scan
   * runs in another process, so what the click should cost the page is their arrival, not their making.
   */
  private ready: { dir: string; holders: Holder[] } | null;

  constructor(private readonly count: number) {
    const startMs = performance.now();
    this.ready = { dir: DEFAULT_DIR, holders: demoHolders(count, DEFAULT_DIR, Date.now()) };
    performance.measure(DEMO_HOLDERS_MEASURE, { start: startMs });
  }

  async scan(): Promise<never> {
    throw new Error('the demo backend does not scan');
  }

  async startWatch({ dirs }: { dirs: string[] }) {
    const watchId = 'demo';
    this.windows = /^[A-Za-z]:\\/.test(dirs[0]!);
    const at = new Date().toISOString();
    // After the answer, as a real host would: all holders in one poll.
    setTimeout(() => {
      const { ready } = this;
      this.ready = null; // a second watch invents its own, as before: a closed handle comes back with it
      this.holders = ready && ready.dir === dirs[0] ? ready.holders : demoHolders(this.count, dirs[0]!, Date.now());
      const events = this.holders.map((holder) => ({ type: 'appeared' as const, at, holder }));
      for (const l of this.watch) l(watchId, events);
      for (const l of this.status) l(watchId, { scans: 1, holders: this.count, denied: 0, error: null });
    }, 0);
    return { watchId };
  }

  async stopWatch() {}
  async startRun(): Promise<never> {
    throw new Error('the demo backend does not run commands');
  }
  async stopRun() {
    for (const l of this.run) l(this.terminalRun.active.runId, { type: 'ended', exitCode: null, record: this.terminalRun.record, error: null });
  }
  async listActiveRuns() {
    return [this.terminalRun.active];
  }
  async attachRun(runId: string) {
    if (runId !== this.terminalRun.active.runId) throw new Error(`no run ${runId} is going`);
    for (const event of this.terminalRun.history) for (const l of this.run) l(runId, event);
  }
  /** On a Windows demo, a holder's process with nothing refused, so its actions (Close handle) can be tried; null elsewhere. */
  async getProcessDetails(pid: number): Promise<ProcessDetails | null> {
    const holder = this.windows ? this.holders.find((h) => h.pid === pid) : undefined;
    if (!holder) return null;
    const { processName: name, processStartedAtMs: startedAtMs, commandLine, user } = holder;
    return {
      process: { pid, ppid: holder.ppid, startedAtMs, name, exe: `C:\\demo\\${name}.exe`, commandLine, user },
      ancestry: [],
      endRefusal: null,
      closeRefusal: null,
      cwd: null,
      cwdUnreadableReason: 'the demo backend reads no process',
      environmentTag: null,
      children: [],
      handleCount: null,
      run: null,
      holdings: [],
    };
  }
  /** The demo's holders have no probes behind them. */
  async getHolderStacks() {
    return null;
  }
  async endProcess(): Promise<never> {
    throw new Error('the demo backend ends no process');
  }
  /** A Windows demo closes the handle (its row goes, as a real close's would); elsewhere it is refused, as Linux refuses. */
  async closeHandle({ pid, handle, path }: CloseHandleRequestDto): Promise<void> {
    if (!this.windows) throw new Error('the demo backend closes no handle: closing a handle of another process is not offered on Linux');
    const holder = this.holders.find((h) => h.pid === pid && h.handle === handle && h.path === path && !this.closed.has(h));
    if (!holder) throw new Error(`handle ${handle} of process ${pid} no longer names ${path}: nothing closed`);
    this.closed.add(holder); // its process lives on: the details panel still reads it
    const at = new Date().toISOString();
    for (const l of this.watch) l('demo', [{ type: 'gone', at, holder }]);
  }
  /** An invented stack (gdb's shape, or a minidump's on a Windows dir) after a pause, so progress and result show offline. */
  async captureLiveStack({ pid }: LiveStackRequestDto): Promise<CapturedLiveStack> {
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (this.windows) {
      const dumpPath = `C:\\Users\\demo\\AppData\\Local\\holdwatch\\dumps\\demo-${pid}.dmp`;
      const threads = [4, 8, 12].map((tid, i) => ({
        id: pid + tid,
        frames: [],
        state: i === 0 ? 'Waiting (UserRequest)' : 'Waiting (WrQueue)',
        startAddress: `0x7ff6a1b2${1000 + i * 16}`,
      }));
      const note = 'DEMO dump, invented: open a real one in WinDbg (~*k) or Visual Studio';
      const text = [`minidump: ${dumpPath}`, `note: ${note}`, ...threads.map((t) => `thread ${t.id} ${t.state} start ${t.startAddress}`)].join('\n') + '\n';
      return { kind: 'stack', pid, tool: 'minidump', threads, dumpPath, note, rawText: text, text };
    }
    const frames = ['clock_nanosleep', 'time_sleep', '_PyEval_EvalFrameDefault', 'Py_RunMain', 'main'].map((name) => ({ function: name, module: 'demo' }));
    const text = `note: DEMO stack, invented\nthread ${pid} "python3"\n${frames.map((f) => `  ${f.function} [demo]`).join('\n')}\n`;
    return { kind: 'stack', pid, tool: 'gdb', threads: [{ id: pid, name: 'python3', frames }], note: 'DEMO stack, invented', rawText: text, text };
  }
  async exportReport(): Promise<never> {
    throw new Error('the demo backend has no runs');
  }
  async revealPath(): Promise<never> {
    throw new Error('the demo backend has no files to reveal');
  }
  async listRecentDirs() {
    return [];
  }
  async dirToOpen() {
    return null;
  }
  async defaultDir() {
    return DEFAULT_DIR;
  }
  async launchDir() {
    return '/home/you/project';
  }
  async elevateScanner(): Promise<never> {
    throw new Error('the demo backend has no scanner to elevate');
  }
  onWatchEvents(l: Listener<[string, readonly WatchEvent[]]>) {
    this.watch.add(l);
    return () => void this.watch.delete(l);
  }
  onWatchStatus(l: Listener<[string, WatchStatus]>) {
    this.status.add(l);
    return () => void this.status.delete(l);
  }
  onRunEvent(l: Listener<[string, RunEvent]>) {
    this.run.add(l);
    return () => void this.run.delete(l);
  }
  onOpenDirRequest() {
    return () => {}; // no second instance starts a demo
  }
}
