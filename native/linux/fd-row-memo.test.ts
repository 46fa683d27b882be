// The walk's memory of each process's fd rows, against a real process whose fds change between
// walks: the rows are the same array only while the links are byte for byte what they were.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FdKindCache } from './fd-kind-cache.js';
import { FdRowMemo } from './fd-row-memo.js';
import { walkPids, type MatchDir, type PidHoldings } from './fd-walk.js';
import { libcProcReader, nodeProcReader, type ProcReader } from './proc-reader.js';

// Holds a.txt and b.txt; on "swap" points a.txt's fd at b.txt (dup2), on "unlink" removes b.txt,
// answering "ok" each time.
const HOLDER = `
import os, sys
a, b = os.open(sys.argv[1], os.O_RDONLY), os.open(sys.argv[2], os.O_RDONLY)
print(a, b, flush=True)
for line in sys.stdin:
    if line.strip() == 'swap': os.dup2(b, a)
    if line.strip() == 'unlink': os.unlink(sys.argv[2])
    print('ok', flush=True)
`;

const readers: [string, () => ProcReader][] = [
  ['node', () => nodeProcReader],
  ['libc', () => libcProcReader() ?? nodeProcReader],
];

describe.each(readers)('FdRowMemo with walkPids (%s reader)', (_name, reader) => {
  let root: string;
  let watched: string;
  let child: ChildProcess | undefined;
  let lines: AsyncIterableIterator<string>;

  beforeEach(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'holdwatch-memo-')));
    watched = join(root, 'watched');
    mkdirSync(watched);
    writeFileSync(join(watched, 'a.txt'), 'a');
    writeFileSync(join(watched, 'b.txt'), 'b');
    child = spawn('python3', ['-c', HOLDER, join(watched, 'a.txt'), join(watched, 'b.txt')], { stdio: ['pipe', 'pipe', 'inherit'] });
    lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    await lines.next();
  });

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  async function send(command: string): Promise<void> {
    child!.stdin!.write(command + '\n');
    expect((await lines.next()).value).toBe('ok');
  }

  const dirsOf = (path: string): MatchDir[] => [{ matchPrefix: path, display: path }];
  let walkIds = 0;
  const walk = (memo: FdRowMemo, kinds = new FdKindCache(), dirs = dirsOf(watched)): PidHoldings => {
    const groups = walkPids([child!.pid!], dirs, { memo, kinds, walkId: ++walkIds, reader: reader() }).groups;
    expect(groups).toHaveLength(1);
    return groups[0]!;
  };
  const paths = (g: PidHoldings) => g.fdRows.map((r) => r.path).sort();

  it('gives the same rows array while the links are unchanged, and new rows once an fd points elsewhere', async () => {
    const memo = new FdRowMemo();
    const first = walk(memo);
    expect(first.fdRowsOfWalk).toBeNull();
    const firstId = walkIds;
    const second = walk(memo);
    expect(second.fdRows).toBe(first.fdRows);
    expect(second.fdRowsOfWalk).toBe(firstId);
    await send('swap');
    const third = walk(memo);
    expect(third.fdRows).not.toBe(first.fdRows);
    expect(third.fdRowsOfWalk).toBeNull();
    expect(paths(third)).toEqual([join(watched, 'b.txt'), join(watched, 'b.txt')]);
    expect(walk(memo).fdRows).toBe(third.fdRows);
  });

  it('never reuses rows whose target ends in " (deleted)": whether it is deleted is a stat away', async () => {
    const memo = new FdRowMemo();
    await send('unlink');
    const first = walk(memo);
    const second = walk(memo);
    expect(second.fdRows).not.toBe(first.fdRows);
    expect(second.fdRows).toEqual(first.fdRows);
    expect(second.fdRows.find((r) => r.path === join(watched, 'b.txt'))?.deleted).toBe(true);
  });

  it('makes rows anew for another process on the pid (another start time), and forgets its fd kinds', () => {
    const memo = new FdRowMemo();
    const kinds = new FdKindCache();
    const first = walk(memo, kinds);
    const remembered = memo.get(child!.pid!)!;
    memo.set(child!.pid!, { ...remembered, startedAtMs: remembered.startedAtMs! - 1000 });
    kinds.remember(child!.pid!, new Map([...kinds.of(child!.pid!)!].map(([fd, facts]) => [fd, { ...facts, dir: true }])));
    const second = walk(memo, kinds);
    expect(second.fdRows).not.toBe(first.fdRows);
    expect(second.fdRows.map((r) => r.kind)).toEqual(['file', 'file']);
  });

  it('starts from nothing when the watched dirs change (rows name their dir)', () => {
    const memo = new FdRowMemo();
    const first = walk(memo);
    const other = walk(memo, new FdKindCache(), [{ matchPrefix: watched, display: 'shown otherwise' }]);
    expect(other.fdRows).not.toBe(first.fdRows);
    expect(other.fdRows.every((r) => r.watchedDir === 'shown otherwise')).toBe(true);
    expect(walk(memo).fdRows).not.toBe(first.fdRows);
  });

  it('a full walk that does not cover a process forgets it', () => {
    const memo = new FdRowMemo();
    walk(memo);
    walkPids([], dirsOf(watched), { memo, cover: [], reader: reader() });
    expect(memo.size).toBe(0);
  });
});
