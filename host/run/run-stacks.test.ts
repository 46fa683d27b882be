import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttributedHolder } from '../../contract/runs.js';
import { stacksEntries } from '../../core/run/probe-held.js';
import { matchRunStacks } from './run-stacks.js';

const T0 = 1_800_000_000_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A probe log dir holding one node process's records: three tests, each leaving an fd on the same path. */
function logDirWithThreeLeaks(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hw-run-stacks-'));
  dirs.push(dir);
  const line = (r: object) => JSON.stringify({ v: 1, pid: 40, ...r });
  const records = [
    line({ kind: 'process', runtime: 'node', ppid: 39, atMs: T0, argv: ['/usr/bin/node', '/src/a.test.js'], cwd: '/src' }),
    ...[1, 2, 3].flatMap((id) => [
      line({ kind: 'test', atMs: T0 + id * 10, event: 'start', name: `t${id}` }),
      line({
        kind: 'open',
        atMs: T0 + id * 10 + 1,
        api: 'fs.openSync',
        path: '/w/log.txt',
        fd: 18 + id,
        id,
        test: `t${id}`,
        frames: [['/src/a.test.js', 5, 1, null, true]],
      }),
      line({ kind: 'test', atMs: T0 + id * 10 + 2, event: 'end', name: `t${id}`, open: [id] }),
    ]),
    line({ kind: 'exit', atMs: T0 + 50, open: [1, 2, 3] }),
  ];
  writeFileSync(join(dir, 'node-40-1.jsonl'), records.join('\n') + '\n');
  return dir;
}

function scanned(fd: number): AttributedHolder {
  return {
    pid: 40,
    ppid: 39,
    processStartedAtMs: T0 - 5,
    processName: 'node',
    commandLine: '/usr/bin/node /src/a.test.js',
    user: 'u',
    kind: 'file',
    path: '/w/log.txt',
    deleted: false,
    handle: `fd ${fd}`,
    watchedDir: '/w',
    attribution: {
      spawnedDuring: null,
      firstSeenDuring: 't1',
      verdict: 'in-run',
      ancestry: [],
      firstSeenAt: new Date(T0 + 12).toISOString(),
      lastSeenAt: new Date(T0 + 12).toISOString(),
    },
  };
}

const watched = [{ input: '/w', display: '/w', matchPrefix: '/w', caseInsensitive: false }];

describe('matchRunStacks', () => {
  it('gives the scanned fd its stack, and the fds no scan saw on the same path rows of their own', async () => {
    const { byKey, unseen } = await matchRunStacks(logDirWithThreeLeaks(), [{ key: 'k', holder: scanned(19) }], watched);
    expect(byKey.k!.open).toMatchObject({ found: true, matchedBy: 'fd', stack: { fd: 19, test: 't1', heldPastTest: true } });
    expect(unseen.map(({ leak }) => [leak.open.fd, leak.stack.test, leak.heldUntilMs - T0])).toEqual([
      [20, 't2', 50],
      [21, 't3', 50],
    ]);
  });

  it('finds nothing unseen outside the watched dirs', async () => {
    const { unseen } = await matchRunStacks(logDirWithThreeLeaks(), [], [{ input: '/x', display: '/x', matchPrefix: '/x', caseInsensitive: false }]);
    expect(unseen).toEqual([]);
  });
});

describe('matchRunStacks: what the finalizer closed', () => {
  /** A python process's log: two files of t1 left to the finalizer, one under the watched dir and one outside it. */
  function logDirWithGcCloses(): string {
    const dir = mkdtempSync(join(tmpdir(), 'hw-run-stacks-gc-'));
    dirs.push(dir);
    const line = (r: object) => JSON.stringify({ v: 1, pid: 40, ...r });
    const gcClose = (path: string, fd: number) =>
      line({
        kind: 'gc-close',
        atMs: T0 + 20,
        resource: 'file',
        api: 'open',
        path,
        fd,
        openedAtMs: T0 + 11,
        test: 't1',
        closedDuring: 't1',
        frames: [['/src/test_a.py', 7, null, 'test_a', true]],
      });
    const records = [
      line({ kind: 'process', runtime: 'python', ppid: 39, atMs: T0, argv: ['/usr/bin/python3', '-m', 'pytest'], cwd: '/src' }),
      gcClose('/w/log.txt', 19),
      gcClose('/elsewhere/notes.txt', 20),
    ];
    writeFileSync(join(dir, 'python-40-1.jsonl'), records.join('\n') + '\n');
    return dir;
  }

  it('finds each close under the watched dirs, with the open as its stack; the holder a scan saw under that fd is its key', async () => {
    const { gcClosed } = await matchRunStacks(logDirWithGcCloses(), [{ key: 'k', holder: scanned(19) }], watched);
    expect(gcClosed.map(({ close, key }) => [close.record.path, close.stack.test, close.stack.heldPastTest, close.stack.frames[0]?.line, key])).toEqual([
      ['/w/log.txt', 't1', false, 7, 'k'],
    ]);
  });

  it('a scan that began before the close and ended long after it saw that open (a loaded machine): its key', async () => {
    const late = scanned(19);
    late.attribution.firstSeenAt = new Date(T0 + 400).toISOString();
    const begun = await matchRunStacks(logDirWithGcCloses(), [{ key: 'k', holder: late, seenFromMs: T0 + 15 }], watched);
    expect(begun.gcClosed.map(({ key }) => key)).toEqual(['k']);
    // Begun after the close, it read a later open under the same fd: not this one.
    const after = await matchRunStacks(logDirWithGcCloses(), [{ key: 'k', holder: late, seenFromMs: T0 + 300 }], watched);
    expect(after.gcClosed.map(({ key }) => key)).toEqual([null]);
  });

  it('no scan saw it (another fd, or none at all): no key, so the close brings its own row', async () => {
    const other = await matchRunStacks(logDirWithGcCloses(), [{ key: 'k', holder: scanned(21) }], watched);
    expect(other.gcClosed.map(({ key }) => key)).toEqual([null]);
    const none = await matchRunStacks(logDirWithGcCloses(), [], watched);
    expect(none.gcClosed.map(({ key, close }) => [key, close.watchedDir])).toEqual([[null, '/w']]);
  });
});

describe("matchRunStacks: a parent's delete that met its child's holding", () => {
  /** A node test process (40) that spawned 41 in /w/proj and removed /w while 41 was still there. */
  function logDirWithChildHold(): string {
    const dir = mkdtempSync(join(tmpdir(), 'hw-run-stacks-child-'));
    dirs.push(dir);
    const line = (r: object) => JSON.stringify({ v: 1, pid: 40, ...r });
    const frames = (lineNo: number) => [['/src/a.test.mjs', lineNo, 1, null, true]];
    const records = [
      line({ kind: 'process', runtime: 'node', ppid: 39, atMs: T0, argv: ['/usr/bin/node', '/src/a.test.mjs'], cwd: '/src' }),
      line({
        kind: 'spawn',
        atMs: T0 + 10,
        api: 'child_process.spawn',
        executable: 'node',
        argv: ['node', 'srv.js'],
        cwd: '/w/proj',
        childPid: 41,
        frames: frames(5),
      }),
      line({
        kind: 'delete',
        atMs: T0 + 40,
        api: 'fs.rmSync',
        path: '/w',
        held: [],
        cwd: false,
        children: [{ pid: 41, fd: null, path: '/w/proj' }],
        frames: frames(9),
      }),
    ];
    writeFileSync(join(dir, 'node-40-1.jsonl'), records.join('\n') + '\n');
    return dir;
  }

  const child = (): AttributedHolder => ({
    ...scanned(0),
    pid: 41,
    ppid: 40,
    processStartedAtMs: T0 + 11,
    commandLine: 'node srv.js',
    kind: 'cwd',
    path: '/w/proj',
    handle: null,
    attribution: {
      ...scanned(0).attribution,
      ancestry: [
        { pid: 41, name: 'node', commandLine: 'node srv.js' },
        { pid: 40, name: 'node', commandLine: '' },
      ],
    },
  });

  it("a scan saw the child's cwd: its row names the parent's delete, and no second row is made", async () => {
    const { byKey, childHeld } = await matchRunStacks(logDirWithChildHold(), [{ key: 'k', holder: child() }], watched);
    expect(byKey.k!.deletedBy).toMatchObject({ api: 'fs.rmSync', atMs: T0 + 40, pid: 40 });
    expect(byKey.k!.spawn).toMatchObject({ found: true, matchedBy: 'child-pid' });
    expect(childHeld).toEqual([]);
  });

  it('no scan saw it: a row of its own, from the spawn to the delete, blocked by that delete', async () => {
    const stacks = await matchRunStacks(logDirWithChildHold(), [], watched);
    const entries = stacksEntries(stacks, 'linux', undefined).filter((e) => e.t === 'probe-held');
    expect(entries).toMatchObject([
      {
        atMs: T0 + 10,
        heldUntilMs: T0 + 40,
        holder: { pid: 41, ppid: 40, kind: 'cwd', path: '/w/proj', handle: null, processName: 'node', commandLine: 'node srv.js' },
        stacks: { spawn: { found: true, matchedBy: 'child-pid' }, deletedBy: { api: 'fs.rmSync', pid: 40 } },
      },
    ]);
  });
});
