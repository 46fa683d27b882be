import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../contract/holders.js';
import type { PidHoldings, RawHolding } from './fd-walk.js';
import { HolderReuse } from './holder-reuse.js';

const info = (pid: number, over: Partial<ProcessInfo> = {}): ProcessInfo => ({
  pid,
  ppid: 1,
  startedAtMs: 1,
  name: 'p',
  exe: null,
  commandLine: 'p',
  user: 'u',
  ...over,
});
const row = (pid: number, fd: number, path: string): RawHolding => ({
  pid,
  kind: 'file',
  path,
  deleted: false,
  handle: `fd ${fd}`,
  watchedDir: '/w',
  openFlags: null,
});
const group = (pid: number, fdRows: readonly RawHolding[], over: Partial<PidHoldings> = {}): PidHoldings => ({
  pid,
  fdRows,
  fdRowsOfWalk: null,
  otherRows: [],
  info: info(pid),
  stackStart: 7000,
  ...over,
});

describe('HolderReuse', () => {
  it('hands back the same objects for unchanged rows and new ones for changed rows', () => {
    const reuse = new HolderReuse();
    const first = reuse.build([group(1, [row(1, 3, '/w/a'), row(1, 4, '/w/b')]), group(2, [row(2, 3, '/w/c')])], null);
    const second = reuse.build([group(1, [row(1, 3, '/w/a'), row(1, 4, '/w/B')]), group(2, [row(2, 3, '/w/c')])], null);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]!.path).toBe('/w/B');
    expect(second[2]).toBe(first[2]);
  });

  it('the walk remembered rows array with unchanged facts: the same holders, the cwd row compared by value', () => {
    const reuse = new HolderReuse();
    const fdRows = [row(1, 3, '/w/a')];
    const cwd = (): RawHolding => ({ ...row(1, 0, '/w'), kind: 'cwd', handle: null });
    const first = reuse.build([group(1, fdRows, { otherRows: [cwd()] })], null);
    const second = reuse.build([group(1, fdRows, { fdRowsOfWalk: 1, otherRows: [cwd()] })], null);
    expect(second).toEqual(first);
    second.forEach((h, i) => expect(h).toBe(first[i]));
  });

  it('never reuses across a reused pid (new start time), nor after the command line changed (exec)', () => {
    const reuse = new HolderReuse();
    const fdRows = [row(1, 3, '/w/a')];
    const [before] = reuse.build([group(1, fdRows)], null);
    const [after] = reuse.build([group(1, fdRows, { info: info(1, { startedAtMs: 2 }) })], null);
    expect(after).not.toBe(before);
    expect(after!.processStartedAtMs).toBe(2);
    const [execed] = reuse.build([group(1, fdRows, { info: info(1, { startedAtMs: 2, commandLine: 'q' }), stackStart: 8000 })], null);
    expect(execed).not.toBe(after);
    expect(execed!.commandLine).toBe('q');
  });

  it('takes a new program only with an exec (a new stack, or a new name), not a title the process rewrote', () => {
    const reuse = new HolderReuse();
    const fdRows = [row(1, 3, '/w/a')];
    const running = (over: Partial<ProcessInfo>) => info(1, { name: 'postgres', commandLine: 'postgres: u db idle', exe: '/usr/bin/postgres', ...over });
    const [before] = reuse.build([group(1, fdRows, { info: running({}) })], null);
    const [retitled] = reuse.build([group(1, fdRows, { info: running({ commandLine: 'postgres: u db SELECT' }) })], null);
    expect(retitled).toBe(before);
    const [reparented] = reuse.build([group(1, fdRows, { info: running({ commandLine: 'postgres: u db idle', ppid: 9 }) })], null);
    expect(reparented).toMatchObject({ ppid: 9, commandLine: 'postgres: u db idle' });
    const [renamed] = reuse.build([group(1, fdRows, { info: running({ name: 'sh', commandLine: 'sh -c x' }) })], null);
    expect(renamed).toMatchObject({ processName: 'sh', commandLine: 'sh -c x' });
    const [execd] = reuse.build([group(1, fdRows, { info: running({ name: 'sh', commandLine: 'sh -c y' }), stackStart: 9000 })], null);
    expect(execd).toMatchObject({ processName: 'sh', commandLine: 'sh -c y' });
  });

  it('keeps what a process ran as while it exits (no stack, argv or exe left), not the kernel-thread form', () => {
    const reuse = new HolderReuse();
    const fdRows = [row(1, 3, '/w/a')];
    const running = info(1, { name: 'node', commandLine: 'node t.js', exe: '/usr/bin/node' });
    const [before] = reuse.build([group(1, fdRows, { info: running })], null);
    const exiting = info(1, { name: 'MainThread', commandLine: '[MainThread]', exe: null });
    const [during] = reuse.build([group(1, fdRows, { info: exiting, stackStart: 0 })], null);
    expect(during).toBe(before);
    // A process first met so has nothing else to show.
    const [met] = new HolderReuse().build([group(1, fdRows, { info: exiting, stackStart: 0 })], null);
    expect(met!.commandLine).toBe('[MainThread]');
  });

  it('keeps other processes across a pid-restricted scan and forgets the scanned ones that hold nothing', () => {
    const reuse = new HolderReuse();
    const first = reuse.build([group(1, [row(1, 3, '/w/a')]), group(2, [row(2, 3, '/w/b')])], null);
    reuse.build([], [1]);
    const full = reuse.build([group(1, [row(1, 3, '/w/a')]), group(2, [row(2, 3, '/w/b')])], null);
    expect(full[0]).not.toBe(first[0]); // pid 1 was scanned holding nothing: its old rows are gone
    expect(full[1]).toBe(first[1]);
  });
});
