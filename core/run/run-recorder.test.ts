import { describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import { POSIX_STYLE } from '../paths.js';
import type { JournalEntry } from '../../contract/journal.js';
import type { OpenStack, StackLookup } from '../../contract/stacks.js';
import { findLeftovers } from './leftovers.js';
import { RunRecorder } from './run-recorder.js';
import { blockersOf } from './holders-on-path.js';
import { pytestHolder } from '../../tests/support/recorder-journal.js';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

function holder(pid: number, path: string, startedAtMs = T0 - 1000): Holder {
  return pytestHolder(pid, path, startedAtMs);
}

const member = { ancestry: [{ pid: 10, name: 'python3', commandLine: 'python3 -m pytest' }], byTagOnly: false };

function recorderWith(entries: JournalEntry[]): RunRecorder {
  const r = new RunRecorder();
  r.apply({
    t: 'run-start',
    runId: 'r1',
    command: ['pytest'],
    cwd: '/src',
    watched: ['/w'],
    platform: 'linux',
    atMs: T0,
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
  });
  for (const e of entries) r.apply(e);
  return r;
}

const test = (type: 'test-start' | 'test-end', name: string, atMs: number): JournalEntry => ({
  t: 'test',
  event: { type, name, atMs, ...(type === 'test-end' ? { outcome: 'passed' as const } : {}) },
});

describe('RunRecorder verdicts', () => {
  it('leaked-past-test: a member handle seen after its test ended', () => {
    const h = holder(10, '/w/a.log');
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      { t: 'appeared', atMs: T0 + 200, key: 'k', holder: h, member },
      test('test-end', 't1', T0 + 1000),
      test('test-start', 't2', T0 + 1001),
      { t: 'run-end', atMs: T0 + 2000, exitCode: 0, lastSeen: { k: T0 + 1500 } },
    ]);
    const [attributed] = r.record().holders;
    expect(attributed!.attribution).toMatchObject({ verdict: 'leaked-past-test', firstSeenDuring: 't1', spawnedDuring: null });
  });

  it('attributes one holder by its key exactly as the whole record does (what a front end sends per entry)', () => {
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      { t: 'appeared', atMs: T0 + 200, key: 'k', holder: holder(10, '/w/a.log'), member },
      test('test-end', 't1', T0 + 1000),
    ]);
    expect(r.attributedHolder('k')).toEqual(r.record().holders[0]);
    expect(r.attributedHolder('never-seen')).toBeNull();
  });

  it('in-run: a handle last seen before its test ended', () => {
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      { t: 'appeared', atMs: T0 + 200, key: 'k', holder: holder(10, '/w/a'), member },
      { t: 'gone', atMs: T0 + 800, key: 'k', lastSeenAtMs: T0 + 700 },
      test('test-end', 't1', T0 + 1000),
    ]);
    expect(r.record().holders[0]!.attribution.verdict).toBe('in-run');
  });

  it('outside-run: not a member, whatever else happened', () => {
    const r = recorderWith([
      { t: 'appeared', atMs: T0 + 20, key: 'k', holder: holder(99, '/w/a'), member: null },
      { t: 'failure', atMs: T0 + 30, text: 'x', path: null, kind: 'busy', code: 16, holderKeys: ['k'] },
    ]);
    expect(r.record().holders[0]!.attribution.verdict).toBe('outside-run');
  });

  it('blocked-cleanup: present in a failure snapshot; spawnedDuring from the process start time', () => {
    const h = holder(11, '/w/tmp/x', T0 + 15);
    const r = recorderWith([
      test('test-start', 't1', T0 + 10),
      { t: 'appeared', atMs: T0 + 40, key: 'k', holder: h, member },
      { t: 'failure', atMs: T0 + 45, text: 'OSError: [Errno 39]', path: '/w/tmp', kind: 'directory-not-empty', code: 39, holderKeys: ['k'] },
    ]);
    const record = r.record();
    expect(record.holders[0]!.attribution).toMatchObject({ verdict: 'blocked-cleanup', spawnedDuring: 't1' });
    expect(record.failures[0]).toMatchObject({ test: 't1', path: '/w/tmp', holders: [expect.objectContaining({ pid: 11 })] });
  });

  it('compensates for runner events that arrive late: a process started just before the recorded test start belongs to it', () => {
    const h = holder(12, '/w/db', T0 + 990);
    const r = recorderWith([
      test('test-start', 't1', T0),
      test('test-end', 't1', T0 + 1000),
      test('test-start', 't2', T0 + 1001),
      { t: 'appeared', atMs: T0 + 1200, key: 'k', holder: h, member },
    ]);
    expect(r.record().holders[0]!.attribution.spawnedDuring).toBe('t2');
  });

  it('places a holder in its test even when the runner event arrives after the poll entry', () => {
    const r = recorderWith([{ t: 'appeared', atMs: T0 + 200, key: 'k', holder: holder(10, '/w/a'), member }, test('test-start', 't1', T0 + 100)]);
    expect(r.record().holders[0]!.attribution.firstSeenDuring).toBe('t1');
  });
});

const stackFor = (path: string, heldPastTest: boolean | undefined, over: Partial<OpenStack> = {}) => ({
  open: {
    found: true as const,
    stack: {
      kind: 'open' as const,
      runtime: 'node' as const,
      pid: 10,
      atMs: T0 + 150,
      test: 't1',
      ...(heldPastTest === undefined ? {} : { heldPastTest }),
      api: 'fs.openSync',
      path,
      fd: 5,
      argv: null,
      childPid: null,
      frames: [],
      ...over,
    },
    matchedBy: 'fd' as const,
    viaPid: null,
  },
  spawn: { found: false as const, reason: 'not probed' },
});

describe('RunRecorder: what the probe inside the process wrote at the test end', () => {
  it("decides the verdict over the poll's timing: a handle first seen during the next test was still open at its own test's end", () => {
    const h = holder(10, '/w/a.log');
    const entries = (held: boolean | undefined): JournalEntry[] => [
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 160),
      test('test-start', 't2', T0 + 161),
      { t: 'appeared', atMs: T0 + 200, key: 'k', holder: h, member },
      { t: 'gone', atMs: T0 + 300, key: 'k', lastSeenAtMs: T0 + 200 },
      test('test-end', 't2', T0 + 400),
      { t: 'stacks', byKey: { k: stackFor('/w/a.log', held) } },
    ];
    const attributionWith = (held: boolean | undefined) => recorderWith(entries(held)).record().holders[0]!.attribution;
    expect(attributionWith(true)).toMatchObject({
      firstSeenDuring: 't2',
      openedDuring: 't1',
      openedDuringBy: 'probe-open',
      verdict: 'leaked-past-test',
      verdictBy: 'probe-open',
    });
    expect(attributionWith(false)).toMatchObject({ openedDuring: 't1', verdict: 'in-run', verdictBy: 'probe-open' });
    // Without the end record, the poll's sighting after t1 ended decides.
    expect(attributionWith(undefined)).toMatchObject({ openedDuring: 't1', verdict: 'leaked-past-test', verdictBy: 'poll' });
  });

  it('a probe-held entry is a row of its own, seen by the probe, dated from the open to the last moment it was seen open', () => {
    const h = holder(10, '/w/b.log');
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 160),
      { t: 'probe-held', atMs: T0 + 150, heldUntilMs: T0 + 170, key: 'p', holder: h, member, stacks: stackFor('/w/b.log', true) },
    ]);
    const [row] = r.record().holders;
    expect(row!.attribution).toMatchObject({ seenBy: 'probe', openedDuring: 't1', verdict: 'leaked-past-test', verdictBy: 'probe-open' });
    expect([row!.attribution.firstSeenAt, row!.attribution.lastSeenAt]).toEqual([new Date(T0 + 150).toISOString(), new Date(T0 + 170).toISOString()]);
  });
});

describe('RunRecorder: the syscall ledger of a Go test binary (strace)', () => {
  const PKG = 'example.com/short';
  /** Three go test -json tests, 10 ms apart from T0 + 100, as test2json names them. */
  const goTests = ['TestFirst', 'TestSecond', 'TestThird'].flatMap((name, i) => [
    test('test-start', `${PKG}.${name}`, T0 + 100 + 10 * i),
    test('test-end', `${PKG}.${name}`, T0 + 105 + 10 * i),
  ]);
  const ledgerHeld = (path: string, heldPastTest: boolean, over: Partial<OpenStack>, atMs = T0 + 112): JournalEntry => ({
    t: 'probe-held',
    atMs,
    heldUntilMs: T0 + 1000,
    key: path,
    holder: holder(10, path),
    member,
    stacks: stackFor(path, heldPastTest, { runtime: 'strace', atMs, api: 'openat', ...over }),
  });
  const verdicts = (entries: JournalEntry[]) =>
    recorderWith(entries)
      .record()
      .holders.map(({ attribution: a }) => [a.openedDuring, a.openedDuringBy, a.verdict, a.verdictBy]);

  it("names the ledger's test as go test -json names it (with its package), and rests both on the ledger", () => {
    expect(verdicts([...goTests, ledgerHeld('/w/second.txt', true, { test: 'TestSecond' })])).toEqual([
      [`${PKG}.TestSecond`, 'syscall-ledger', 'leaked-past-test', 'syscall-ledger'],
    ]);
    expect(verdicts([...goTests, ledgerHeld('/w/second.txt', false, { test: 'TestSecond' })])).toEqual([
      [`${PKG}.TestSecond`, 'syscall-ledger', 'in-run', 'syscall-ledger'],
    ]);
  });

  it('opened while parallel tests ran: no test from the ledger, yet held past the last of them it leaked', () => {
    const parallel = ledgerHeld('/w/p.txt', true, { test: undefined, ambiguousAmong: ['TestP/a', 'TestP/b'] }, T0 + 900);
    expect(verdicts([...goTests, parallel])).toEqual([[null, null, 'leaked-past-test', 'syscall-ledger']]);
  });
});

describe('RunRecorder: what the finalizer closed, not the code', () => {
  const closed = (key: string, atMs: number, closedDuring: string | null, unseen?: { holder: Holder }, open?: StackLookup): JournalEntry => ({
    t: 'gc-closed',
    atMs,
    openedAtMs: T0 + 120,
    key,
    closedDuring,
    resource: 'file',
    api: 'open',
    ...(open ? { open } : {}),
    ...(unseen ? { unseen: { holder: unseen.holder, member, stacks: stackFor(unseen.holder.path, undefined) } } : {}),
  });

  it('closed inside the test that opened it: a row of its own, closed-by-gc, with when and during which test', () => {
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 160),
      closed('g', T0 + 130, 't1', { holder: holder(10, '/w/a.log') }),
    ]);
    const [row] = r.record().holders;
    expect(row!.attribution).toMatchObject({
      seenBy: 'probe',
      openedDuring: 't1',
      verdict: 'closed-by-gc',
      verdictBy: 'probe-finalizer',
      closedByFinalizer: { at: new Date(T0 + 130).toISOString(), during: 't1', resource: 'file', api: 'open' },
    });
  });

  it('closed by a later collection (a cycle freed in the next test): it outlived its test, leaked-past-test', () => {
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 160),
      test('test-start', 't2', T0 + 161),
      closed('g', T0 + 300, 't2', { holder: holder(10, '/w/a.log') }),
    ]);
    expect(r.record().holders[0]!.attribution).toMatchObject({ openedDuring: 't1', verdict: 'leaked-past-test', verdictBy: 'probe-finalizer' });
  });

  it('a close of what a scan saw marks that row, and adds none', () => {
    const h = holder(10, '/w/a.log');
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      { t: 'appeared', atMs: T0 + 125, key: 'k', holder: h, member },
      { t: 'gone', atMs: T0 + 140, key: 'k', lastSeenAtMs: T0 + 125 },
      test('test-end', 't1', T0 + 160),
      { t: 'stacks', byKey: { k: stackFor('/w/a.log', undefined) } },
      closed('k', T0 + 130, 't1'),
    ]);
    const holders = r.record().holders;
    expect(holders).toHaveLength(1);
    expect(holders[0]!.attribution).toMatchObject({ verdict: 'closed-by-gc', closedByFinalizer: { during: 't1' } });
    expect(holders[0]!.attribution.seenBy).toBeUndefined();
  });

  it("a scan that read the fd as the collector closed it, dated after its test, gets the finalizer's open: its test, its line, closed-by-gc", () => {
    // The loaded run of examples/node-gc-closed: the scan ended after the close and between two tests,
    // so the stack matched at its date was none, and its timing alone said in-run, no test.
    const h = holder(10, '/w/a.log');
    const open = stackFor('/w/a.log', false).open;
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 160),
      { t: 'appeared', atMs: T0 + 170, scanStartedAtMs: T0 + 120, key: 'k', holder: h, member },
      { t: 'gone', atMs: T0 + 200, key: 'k', lastSeenAtMs: T0 + 120 },
      test('test-start', 't2', T0 + 300),
      { t: 'stacks', byKey: { k: { open: { found: false, reason: 'no open stack' }, spawn: { found: false, reason: 'not probed' } } } },
      closed('k', T0 + 155, 't1', undefined, open),
    ]);
    const [row] = r.record().holders;
    expect(row!.attribution).toMatchObject({ openedDuring: 't1', openedDuringBy: 'probe-open', verdict: 'closed-by-gc', verdictBy: 'probe-finalizer' });
    expect(row!.attribution.openStack).toEqual(open);
  });

  it('a teardown failure on it still reads blocked-cleanup', () => {
    const h = holder(10, '/w/a.log');
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      { t: 'appeared', atMs: T0 + 125, key: 'k', holder: h, member },
      { t: 'failure', atMs: T0 + 150, text: 'PermissionError: [WinError 32]', path: '/w', kind: 'sharing-violation', code: 32, holderKeys: ['k'], test: 't1' },
      closed('k', T0 + 170, 't1'),
    ]);
    expect(r.record().holders[0]!.attribution.verdict).toBe('blocked-cleanup');
  });
});

describe('blockersOf', () => {
  it('a failure first seen as a bare line during the next test takes the test the runner later names', () => {
    const failure: JournalEntry = {
      t: 'failure',
      atMs: T0 + 1150,
      text: "rm: cannot remove '/w/x': Directory not empty",
      path: '/w/x',
      kind: 'directory-not-empty',
      code: null,
      holderKeys: [],
      test: null,
    };
    const base = [test('test-start', 'starts the indexer', T0 + 100), test('test-start', 'a later test', T0 + 1100), failure];
    expect(recorderWith(base).record().failures[0]!.test).toBe('a later test'); // by arrival time alone
    const named = recorderWith([...base, { t: 'failure-test', atMs: T0 + 1150, test: 'starts the indexer' }]);
    expect(named.record().failures[0]!.test).toBe('starts the indexer');
    // A failure that already has its test is never renamed.
    const own = recorderWith([...base.slice(0, 2), { ...failure, test: 'a later test' }, { t: 'failure-test', atMs: T0 + 1150, test: 'starts the indexer' }]);
    expect(own.record().failures[0]!.test).toBe('a later test');
  });

  it('prefers holders under the failing path, else all', () => {
    const a = holder(1, '/w/x/a');
    const b = holder(2, '/w/y/b');
    expect(blockersOf([a, b], '/w/x')).toEqual([a]);
    expect(blockersOf([a, b], '/elsewhere')).toEqual([a, b]);
    expect(blockersOf([a, b], null)).toEqual([a, b]);
  });
});

describe('findLeftovers', () => {
  it('reports the top-most new paths, grouped by the test they appeared in', () => {
    const after = [
      { path: '/w/store', createdAtMs: 15 },
      { path: '/w/store/a', createdAtMs: 16 },
      { path: '/w/late.txt', createdAtMs: 25 },
    ];
    const placeAt = (ms: number) => ({ during: ms < 20 ? 't1' : 't2', after: null });
    expect(findLeftovers(after, placeAt, POSIX_STYLE)).toEqual([
      { path: '/w/store', createdDuring: 't1' },
      { path: '/w/late.txt', createdDuring: 't2' },
    ]);
  });

  it('dates what appeared between tests by the last test that had ended (a process that outlived it wrote it)', () => {
    const after = [
      { path: '/w/early', createdAtMs: 5 },
      { path: '/w/sub', createdAtMs: 12 },
      { path: '/w/sub/f1', createdAtMs: 31 },
      { path: '/w/sub/f2', createdAtMs: 32 },
    ];
    // t1 runs 10..20; nothing runs after it.
    const placeAt = (ms: number) => ({ during: ms >= 10 && ms < 20 ? 't1' : null, after: ms >= 20 ? 't1' : null });
    expect(findLeftovers(after, placeAt, POSIX_STYLE)).toEqual([
      { path: '/w/early', createdDuring: null },
      { path: '/w/sub', createdDuring: 't1' },
      { path: '/w/sub/f1', createdDuring: null, createdAfter: 't1' },
      { path: '/w/sub/f2', createdDuring: null, createdAfter: 't1' },
    ]);
  });
});

describe('RunRecorder: scopes, self-inventory, deletes of held paths', () => {
  const listedOpen = (over: Partial<Extract<StackLookup, { found: true }>['stack']>): StackLookup => ({
    found: true,
    matchedBy: 'fd',
    viaPid: null,
    stack: {
      kind: 'open',
      runtime: 'node',
      pid: 10,
      atMs: T0 + 50,
      api: 'native',
      path: '/w/db',
      fd: 5,
      argv: null,
      childPid: null,
      frames: [],
      listed: true,
      ...over,
    },
  });
  const noSpawn: StackLookup = { found: false, reason: 'none' };
  const seen = (stack: StackLookup, deleted = false): JournalEntry[] => [
    test('test-start', 't1', T0 + 100),
    { t: 'appeared', atMs: T0 + 200, key: 'k', holder: { ...holder(10, '/w/db'), deleted }, member },
    test('test-end', 't1', T0 + 1000),
    { t: 'stacks', byKey: { k: { open: stack, spawn: noSpawn } } },
  ];

  it('an open of a wider scope still open at its end: leaked past that scope, which the attribution names', () => {
    const scope = { kind: 'suite' as const, name: 'store' };
    const [h] = recorderWith(seen(listedOpen({ scope, heldPastTest: true }))).record().holders;
    expect(h!.attribution).toMatchObject({
      verdict: 'leaked-past-test',
      verdictBy: 'self-inventory',
      openedDuring: null,
      openedDuringBy: 'self-inventory',
      scope,
    });
  });

  it("one its scope's after hooks closed is no finding, though a poll saw it during a test", () => {
    const [h] = recorderWith(seen(listedOpen({ scope: { kind: 'file', name: 'a.test.mjs' }, heldPastTest: false }))).record().holders;
    expect(h!.attribution).toMatchObject({ verdict: 'in-run', openedDuring: null });
  });

  it("a listed open made in a test rests on the process's own list, not on a probe's record of the call", () => {
    const [h] = recorderWith(seen(listedOpen({ test: 't1', heldPastTest: true }))).record().holders;
    expect(h!.attribution).toMatchObject({ verdict: 'leaked-past-test', verdictBy: 'self-inventory', openedDuring: 't1' });
  });

  it('a held path a run process deleted is the Windows failure, predicted: by the delete the probe saw, or by the (deleted) a scan saw', () => {
    const deletedBy = { api: 'fs.rmSync', atMs: T0 + 900, path: '/w', frames: [] };
    const [byCall] = recorderWith(seen(listedOpen({ test: 't1', heldPastTest: true, deletedBy }))).record().holders;
    expect(byCall!.attribution).toMatchObject({ verdict: 'blocked-cleanup', verdictBy: 'deleted-while-held' });
    const [byScan] = recorderWith(seen({ found: false, reason: 'not probed' }, true)).record().holders;
    expect(byScan!.attribution).toMatchObject({ verdict: 'blocked-cleanup', verdictBy: 'deleted-while-held' });
  });

  it("a parent's delete that met its child's holding is the same prediction, and the attribution names that delete", () => {
    const deletedBy = { api: 'fs.rmSync', atMs: T0 + 900, path: '/w', frames: [], pid: 9 };
    const entries = seen({ found: false, reason: 'not probed' });
    const stacks = entries.pop() as Extract<JournalEntry, { t: 'stacks' }>;
    entries.push({ t: 'stacks', byKey: { k: { ...stacks.byKey.k!, deletedBy } } });
    const [h] = recorderWith(entries).record().holders;
    expect(h!.attribution).toMatchObject({ verdict: 'blocked-cleanup', verdictBy: 'deleted-while-held', deletedBy });
  });
});

describe('RunRecorder: a process listing its own holdings', () => {
  it('a poll that began before the list and arrives after it keeps the first sighting and the unlink the list saw', () => {
    const h = holder(10, '/w/db');
    const r = recorderWith([
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 500),
      { t: 'appeared', atMs: T0 + 500, scanStartedAtMs: T0 + 500, key: 'k', holder: { ...h, deleted: true }, member },
      { t: 'boundary', test: 't1', listed: true, atMs: T0 + 500, pid: 10, scanStartedAtMs: T0 + 500, scanEndedAtMs: T0 + 500, held: ['k'] },
      { t: 'appeared', atMs: T0 + 520, scanStartedAtMs: T0 + 490, key: 'k', holder: h, member },
    ]);
    const [attributed] = r.record().holders;
    expect(attributed).toMatchObject({ deleted: true, attribution: { verdict: 'blocked-cleanup', openedDuring: 't1', openedDuringBy: 'self-inventory' } });
    expect(attributed!.attribution.firstSeenAt).toBe(new Date(T0 + 500).toISOString());
  });
});
