// A poller's walk thread against a real holder: its answers give back the very rows the caller
// received while the process is unchanged (the thread sent a reference, not rows), new rows once it
// changes, and the same on a focus walk.
import { spawn } from 'node:child_process';
import { readdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PidHoldings, WalkResult } from '../../native/linux/fd-walk.js';
import type * as PoolModule from '../../native/linux/scan-pool.js';
import { REPO_ROOT } from '../support/cli.js';

// Holds a.txt; on "open" also b.txt, answering "ok".
const HOLDER = `
import sys
held = [open(sys.argv[1])]
print("ready", flush=True)
for line in sys.stdin:
    held.append(open(sys.argv[2]))
    print("ok", flush=True)
`;

let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'hw-walk-thread-')));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const allPids = () =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);

it('answers an unchanged process with the rows the caller already has, and a changed one with new rows', async () => {
  // The built code: the worker's script only resolves from dist.
  const { ScanPool } = (await import(`${REPO_ROOT}dist/native/linux/scan-pool.js`)) as typeof PoolModule;
  const pool = new ScanPool('worker');
  const [a, b] = [join(dir, 'a.txt'), join(dir, 'b.txt')];
  writeFileSync(a, 'a');
  writeFileSync(b, 'b');
  const holder = spawn('/usr/bin/python3', ['-c', HOLDER, a, b], { stdio: ['pipe', 'pipe', 'inherit'] });
  const nextLine = () => new Promise<string>((resolve) => holder.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
  try {
    expect(await nextLine()).toBe('ready');
    const dirs = [{ matchPrefix: dir, display: dir }];
    const groupOf = (result: WalkResult): PidHoldings => {
      const group = result.groups.find((g) => g.pid === holder.pid);
      expect(group).toBeDefined();
      return group!;
    };
    // Once the thread is up (before, the caller walks), its first answer sends the rows.
    await pool.whenOnline();
    const sent = groupOf(await pool.walk(allPids(), dirs, true));
    expect(sent.fdRows.map((r) => r.path)).toEqual([a]);
    expect(sent.fdRowsOfWalk).toBeNull();
    const named = groupOf(await pool.walk(allPids(), dirs, true));
    expect(named.fdRows).toBe(sent.fdRows);
    expect(named.fdRowsOfWalk).not.toBeNull();
    expect(groupOf(await pool.walk([holder.pid!], dirs, false)).fdRows).toBe(sent.fdRows);

    holder.stdin.write('open\n');
    expect(await nextLine()).toBe('ok');
    const changed = groupOf(await pool.walk(allPids(), dirs, true));
    expect(changed.fdRowsOfWalk).toBeNull();
    expect(changed.fdRows.map((r) => r.path)).toEqual([a, b]);
    expect(groupOf(await pool.walk(allPids(), dirs, true)).fdRows).toBe(changed.fdRows);
  } finally {
    holder.kill('SIGKILL');
    await pool.dispose();
  }
}, 30_000);
