import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Holder, WatchEvent } from '../../contract/holders.js';
import type { ActiveRun, AttributedHolder, FailureRecord, RunEvent, RunRecord } from '../../contract/runs.js';
import type { HoldwatchService, WatchStatus } from '../../contract/service.js';
import { holderKey } from '../../contract/identity.js';
import { applyBatch, type Incoming } from './apply-events.js';
import { setService } from '../service/current.js';
import { frozenRows, isDetached, shownRows } from './derive.js';
import { relativePath } from './row-text.js';
import { attachRun, refreshActiveRuns, stopRun } from './intents.js';
import { MARK_MS, sweepRows } from './rows.js';
import { resetStore, useStore } from './store.js';
import { FIRST_FOLD_ITEMS, wireStore, type Scheduler } from './wire.js';

const AT = '2024-05-01T10:00:00.000Z';
const atMs = Date.parse(AT);

function holder(over: Partial<Holder> = {}): Holder {
  return {
    pid: 100,
    ppid: 1,
    processStartedAtMs: 5,
    processName: 'python3',
    commandLine: 'python3 t.py',
    user: 'dev',
    kind: 'file',
    path: '/w/a.log',
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
    ...over,
  };
}

function attributed(h: Holder, verdict: AttributedHolder['attribution']['verdict'], first = AT, last = AT): AttributedHolder {
  return { ...h, attribution: { spawnedDuring: 't1', firstSeenDuring: 't1', verdict, ancestry: [], firstSeenAt: first, lastSeenAt: last } };
}

const watchItem = (type: WatchEvent['type'], h: Holder, watchId = 'w1'): Incoming => ({ channel: 'watch', watchId, event: { type, at: AT, holder: h } });
const runItem = (event: RunEvent, runId = 'r1'): Incoming => ({ channel: 'run', runId, event });

function watching(): void {
  useStore.setState((s) => ({ watch: { ...s.watch, watchId: 'w1', dirs: ['/w'], phase: 'first-scan' } }));
}

beforeEach(() => resetStore());

describe('watch slice', () => {
  it('lists what the first scan finds unmarked: it was there before the watch began', () => {
    watching();
    useStore.setState((s) => applyBatch(s, [watchItem('appeared', holder())], 1));
    expect(useStore.getState().watch.rows.get(holderKey(holder()))?.state).toBe('live');
  });

  it('adds appearing rows marked new and marks going rows gone in place', () => {
    watching();
    useStore.setState((s) => ({ watch: { ...s.watch, scans: 1 } }));
    const a = holder();
    const b = holder({ pid: 101, path: '/w/b.log' });
    useStore.setState((s) => applyBatch(s, [watchItem('appeared', a), watchItem('appeared', b)], 1000));
    useStore.setState((s) => applyBatch(s, [watchItem('gone', a)], 2000));
    const rows = useStore.getState().watch.rows;
    expect(rows.get(holderKey(a))).toMatchObject({ state: 'gone', changedAtMs: 2000 });
    expect(rows.get(holderKey(b))).toMatchObject({ state: 'new', sinceMs: atMs });
  });

  it('updates a changed row in place: the process as it runs now, its mark and first sight kept', () => {
    watching();
    useStore.setState((s) => ({ watch: { ...s.watch, scans: 1 } }));
    const forked = holder({ processName: 'sh', commandLine: 'sh -c "exec tail -f a.log"' });
    useStore.setState((s) => applyBatch(s, [watchItem('appeared', forked)], 1000));
    const execd = { ...forked, processName: 'tail', commandLine: 'tail -f a.log' };
    useStore.setState((s) =>
      applyBatch(s, [{ channel: 'watch', watchId: 'w1', event: { type: 'changed', at: '2024-05-01T10:00:05.000Z', holder: execd } }], 2000),
    );
    const rows = useStore.getState().watch.rows;
    expect([...rows.values()]).toHaveLength(1);
    expect(rows.get(holderKey(execd))).toMatchObject({ holder: execd, state: 'new', sinceMs: atMs, changedAtMs: 1000 });
  });

  it('ignores events of a watch it no longer shows', () => {
    watching();
    const before = useStore.getState();
    const changed = applyBatch(before, [watchItem('appeared', holder(), 'w0')], 1);
    expect(changed).toEqual({});
  });

  it('folds 20,000 events into one new map (one render)', () => {
    watching();
    const batch = Array.from({ length: 20_000 }, (_, i) => watchItem('appeared', holder({ pid: 1000 + i })));
    const changed = applyBatch(useStore.getState(), batch, 1);
    expect(changed.watch?.rows.size).toBe(20_000);
  });

  it('turns a status into live, and an error into a readable sentence', () => {
    watching();
    const status = (s: WatchStatus): Incoming => ({ channel: 'watch-status', watchId: 'w1', status: s });
    useStore.setState((s) => applyBatch(s, [status({ scans: 1, holders: 0, denied: 3, error: null })], 1));
    expect(useStore.getState().watch).toMatchObject({ phase: 'live', scans: 1, denied: 3, protectedDenied: 0 });
    // Of the denied, those Windows protects: the view offers no elevation for them.
    useStore.setState((s) => applyBatch(s, [status({ scans: 2, holders: 0, denied: 3, protectedDenied: 2, error: null })], 1));
    expect(useStore.getState().watch).toMatchObject({ denied: 3, protectedDenied: 2 });
    // Scans failing for a passing reason: the watch stays live and says so; the next scan clears it.
    const retrying = 'Scans are failing (EMFILE); trying again in 2 s.';
    useStore.setState((s) => applyBatch(s, [status({ scans: 2, holders: 0, denied: 3, error: null, retrying })], 1));
    expect(useStore.getState().watch).toMatchObject({ phase: 'live', retrying });
    useStore.setState((s) => applyBatch(s, [status({ scans: 3, holders: 0, denied: 3, error: null, retrying: null })], 1));
    expect(useStore.getState().watch).toMatchObject({ phase: 'live', retrying: null });
    useStore.setState((s) => applyBatch(s, [status({ scans: 1, holders: 0, denied: 0, error: 'The watch stopped: EIO.' })], 2));
    expect(useStore.getState().watch).toMatchObject({ phase: 'error', error: 'The watch stopped: EIO.', watchId: null });
  });

  it('settles marks after MARK_MS: new becomes live, gone is swept', () => {
    watching();
    useStore.setState((s) => ({ watch: { ...s.watch, scans: 1 } }));
    const a = holder();
    const b = holder({ pid: 101 });
    useStore.setState((s) => applyBatch(s, [watchItem('appeared', a), watchItem('appeared', b)], 0));
    useStore.setState((s) => applyBatch(s, [watchItem('gone', b)], 10));
    expect(sweepRows(useStore.getState().watch.rows, MARK_MS - 1)).toBeNull();
    const swept = sweepRows(useStore.getState().watch.rows, MARK_MS + 10)!;
    expect([...swept.values()].map((r) => [r.holder.pid, r.state])).toEqual([[100, 'live']]);
  });
});

describe('run slice', () => {
  const record = (over: Partial<RunRecord> = {}): RunRecord => ({
    runId: 'r1',
    command: ['bats', 't'],
    cwd: '/w',
    watched: ['/w'],
    platform: 'linux',
    exitCode: null,
    startedAt: AT,
    endedAt: null,
    tests: [],
    holders: [],
    failures: [],
    leftovers: [],
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
    ...over,
  });

  beforeEach(() => useStore.setState((s) => ({ run: { ...s.run, runId: 'r1', phase: 'running' } })));

  it('puts attributed holders in the table and failures on the timeline', () => {
    const h = attributed(holder(), 'in-run');
    const failure: FailureRecord = {
      at: AT,
      text: 'rm: cannot remove',
      path: '/w',
      kind: 'directory-not-empty',
      code: 39,
      test: 't1',
      holders: [attributed(holder(), 'blocked-cleanup')],
    };
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'holder', change: 'appeared', at: AT, holder: h }), runItem({ type: 'failure', failure })], 1));
    const state = useStore.getState();
    expect(state.watch.rows.get(holderKey(h))?.attribution?.verdict).toBe('in-run');
    expect(state.run.failures).toHaveLength(1);
  });

  it("updates a run's holder in place when its process exec'd", () => {
    const forked = attributed(holder({ processName: 'sh' }), 'in-run');
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'holder', change: 'appeared', at: AT, holder: forked })], 1));
    const execd = { ...forked, processName: 'tail' };
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'holder', change: 'changed', at: AT, holder: execd })], 2));
    const row = useStore.getState().watch.rows.get(holderKey(execd));
    expect(row).toMatchObject({ holder: { processName: 'tail' }, state: 'new' });
  });

  it('applies the final verdicts when the run ends, and keeps a bounded output tail', () => {
    const h = holder();
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'holder', change: 'appeared', at: AT, holder: attributed(h, 'in-run') })], 1));
    useStore.setState((s) =>
      applyBatch(
        s,
        [
          runItem({ type: 'output', stream: 'stdout', text: 'x'.repeat(100_000) }),
          runItem({ type: 'ended', exitCode: 1, record: record({ exitCode: 1, holders: [attributed(h, 'leaked-past-test')] }), error: null }),
        ],
        2,
      ),
    );
    const state = useStore.getState();
    expect(state.run).toMatchObject({ phase: 'ended', exitCode: 1 });
    expect(state.run.output.length).toBe(64 * 1024);
    expect(state.watch.rows.get(holderKey(h))?.attribution?.verdict).toBe('leaked-past-test');
  });

  it('takes a changed verdict from each record while the run goes (a blocker shows before the end)', () => {
    const h = holder();
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'holder', change: 'appeared', at: AT, holder: attributed(h, 'in-run') })], 1));
    const before = useStore.getState().watch.rows;
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'record', record: record({ holders: [attributed(h, 'in-run')] }) })], 2));
    expect(useStore.getState().watch.rows).toBe(before); // nothing changed: no new map, no render
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'record', record: record({ holders: [attributed(h, 'blocked-cleanup')] }) })], 3));
    expect(useStore.getState().watch.rows.get(holderKey(h))?.attribution?.verdict).toBe('blocked-cleanup');
  });

  it('shows an ended-with-error run as an error, not a blank', () => {
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'ended', exitCode: null, record: null, error: 'command not found: pytset' })], 1));
    expect(useStore.getState().run).toMatchObject({ phase: 'error', error: 'command not found: pytset' });
  });
});

describe('what the table shows', () => {
  it('sorts by a column, keeps ties in key order, and filters on any shown text', () => {
    watching();
    const hs = [holder({ pid: 3, path: '/w/c' }), holder({ pid: 1, path: '/w/sub/a', processName: 'node' }), holder({ pid: 2, path: '/w/b' })];
    useStore.setState((s) =>
      applyBatch(
        s,
        hs.map((h) => watchItem('appeared', h)),
        1,
      ),
    );
    const rows = useStore.getState().watch.rows.values();
    expect(shownRows(rows, { sort: { column: 'pid', descending: true }, filter: '' }).map((r) => r.holder.pid)).toEqual([3, 2, 1]);
    expect(
      shownRows(useStore.getState().watch.rows.values(), { sort: { column: 'since', descending: false }, filter: 'NODE' }).map((r) => r.holder.pid),
    ).toEqual([1]);
    expect(relativePath('/w/sub/a', '/w')).toBe('sub/a');
    expect(relativePath('C:\\w\\x.txt', 'C:\\w')).toBe('x.txt');
  });

  it('freezes at a failure: holders alive then, the blockers highlighted', () => {
    const alive = attributed(holder({ pid: 7 }), 'in-run', '2024-05-01T09:59:00.000Z', '2024-05-01T10:00:05.000Z');
    const before = attributed(holder({ pid: 8 }), 'in-run', '2024-05-01T09:00:00.000Z', '2024-05-01T09:01:00.000Z');
    const blocker = attributed(holder({ pid: 9, path: '/w/x/indexer.log' }), 'blocked-cleanup');
    const failure: FailureRecord = { at: AT, text: 'rm failed', path: '/w/x', kind: 'directory-not-empty', code: null, test: 't1', holders: [blocker] };
    const { rows, blockers } = frozenRows({ holders: [alive, before, blocker] } as RunRecord, failure);
    const shown = shownRows(rows, { sort: { column: 'pid', descending: false }, filter: '' }, blockers);
    expect(shown.map((r) => [r.holder.pid, r.highlighted])).toEqual([
      [7, false],
      [9, true],
    ]);
  });
});

describe('wireStore', () => {
  /** The store wired to a service whose polls the test pushes, frames run by hand. */
  function wired() {
    const listeners: { watch?: (id: string, events: readonly WatchEvent[]) => void } = {};
    const service = {
      onWatchEvents: (l: (id: string, events: readonly WatchEvent[]) => void) => ((listeners.watch = l), () => {}),
      onWatchStatus: () => () => {},
      onRunEvent: () => () => {},
    } as unknown as HoldwatchService;
    const frames: (() => void)[] = [];
    const scheduler: Scheduler = { soon: (fn) => void frames.push(fn), every: () => () => {}, now: () => 0 };
    watching();
    const off = wireStore(service, scheduler);
    return { listeners, frames, off };
  }

  it('batches the events of one frame into one store update', () => {
    const { listeners, frames, off } = wired();
    let updates = 0;
    const unsubscribe = useStore.subscribe(() => updates++);
    for (let i = 0; i < 500; i++) listeners.watch!('w1', [{ type: 'appeared', at: AT, holder: holder({ pid: 2000 + i }) }]);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(updates).toBe(1);
    expect(useStore.getState().watch.rows.size).toBe(500);
    unsubscribe();
    off();
  });

  it('folds a first screen of an empty table first and the rest of what arrived a frame later', () => {
    const { listeners, frames, off } = wired();
    const poll = Array.from({ length: 5 * FIRST_FOLD_ITEMS }, (_, i) => ({ type: 'appeared' as const, at: AT, holder: holder({ pid: 2000 + i }) }));
    listeners.watch!('w1', poll);
    frames.shift()!();
    expect(useStore.getState().watch.rows.size).toBe(FIRST_FOLD_ITEMS);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(useStore.getState().watch.rows.size).toBe(poll.length);
    // A table that shows rows takes a frame's events whole.
    listeners.watch!(
      'w1',
      poll.map((e, i) => ({ ...e, holder: holder({ pid: 9000 + i }) })),
    );
    frames.shift()!();
    expect(useStore.getState().watch.rows.size).toBe(2 * poll.length);
    expect(frames).toHaveLength(0);
    off();
  });
});

describe('attaching to a terminal run', () => {
  const active: ActiveRun = { runId: 'term-1', command: ['pytest', '-x'], cwd: '/p', watched: ['/w'], startedAt: AT, pid: 4242 };
  const failure: FailureRecord = { at: AT, text: 'PermissionError: [WinError 32]', path: '/w', kind: 'sharing-violation', code: 32, test: 't1', holders: [] };
  /** A host whose attachRun replays the history during the call, as the real one does. */
  function host(over: Partial<HoldwatchService> = {}) {
    const calls: string[] = [];
    const replay = (event: RunEvent) => useStore.setState((s) => applyBatch(s, [runItem(event, active.runId)], 1));
    const fake = {
      startWatch: async ({ dirs }: { dirs: string[] }) => (calls.push(`watch ${dirs[0]}`), { watchId: 'w1' }),
      stopWatch: async () => {},
      defaultDir: async () => '/tmp',
      listRecentDirs: async () => [],
      listActiveRuns: async () => [active],
      attachRun: async (runId: string) => {
        calls.push(`attach ${runId}`);
        replay({ type: 'started', command: active.command, cwd: active.cwd, watched: active.watched });
        replay({ type: 'failure', failure });
      },
      stopRun: async (runId: string) => void calls.push(`stop ${runId}`),
      ...over,
    };
    setService(fake as unknown as HoldwatchService);
    return calls;
  }
  afterEach(() => setService(null));

  it('lists the running terminal runs; a failed refresh keeps the last list and says why', async () => {
    host();
    expect(useStore.getState().attach).toEqual({ runs: [], loaded: false, error: null });
    await refreshActiveRuns();
    expect(useStore.getState().attach).toEqual({ runs: [active], loaded: true, error: null });
    host({ listActiveRuns: async () => Promise.reject(new Error('connection lost')) });
    await refreshActiveRuns();
    expect(useStore.getState().attach).toMatchObject({ runs: [active], error: expect.stringMatching(/connection lost/) });
  });

  it('follows the run without a watch of its own: the history replayed during the call is kept', async () => {
    const calls = host();
    await attachRun(active);
    expect(calls).toEqual(['attach term-1']); // the run's holdwatch scans; a second scanner would only cost
    const { run, watch } = useStore.getState();
    expect(watch).toMatchObject({ dirs: ['/w'], phase: 'following', watchId: null });
    expect(run).toMatchObject({ runId: 'term-1', phase: 'running', command: ['pytest', '-x'], attachedPid: 4242 });
    expect(run.failures).toEqual([failure]);
  });

  it('keeps one failure when a second window replays the same history', async () => {
    host();
    await attachRun(active);
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'failure', failure }, active.runId)], 2));
    expect(useStore.getState().run.failures).toHaveLength(1);
  });

  it('detaching ends the view, not the run: no final record means detached', async () => {
    const calls = host();
    await attachRun(active);
    await stopRun();
    expect(calls.at(-1)).toBe('stop term-1');
    const partial: RunRecord = {
      runId: 'term-1',
      command: active.command,
      cwd: '/p',
      watched: ['/w'],
      platform: 'linux',
      exitCode: null,
      startedAt: AT,
      endedAt: null,
      tests: [],
      holders: [],
      failures: [failure],
      leftovers: [],
      versions: { holdwatch: '0', node: 'v20', os: 'linux' },
    };
    useStore.setState((s) => applyBatch(s, [runItem({ type: 'ended', exitCode: null, record: partial, error: null }, active.runId)], 3));
    expect(isDetached(useStore.getState().run)).toBe(true);
    useStore.setState((s) =>
      applyBatch(s, [runItem({ type: 'ended', exitCode: 1, record: { ...partial, exitCode: 1, endedAt: AT }, error: null }, active.runId)], 4),
    );
    expect(isDetached(useStore.getState().run)).toBe(false); // ended in its terminal: the record is final
    expect(isDetached({ attachedPid: null, phase: 'ended', record: null })).toBe(false); // a run started here
  });

  it('says why an attach failed and refreshes the list (the run may have ended)', async () => {
    let listed = 0;
    host({ attachRun: async () => Promise.reject(new Error('no run term-1 is going')), listActiveRuns: async () => (listed++, []) });
    await attachRun(active);
    expect(useStore.getState().run).toMatchObject({ phase: 'error', error: expect.stringMatching(/^Could not attach to pytest -x: no run term-1 is going/) });
    await vi.waitFor(() => expect(listed).toBe(1));
  });
});
