// The Node probe's delete record names what the deleting process's live children hold under the path
// (read from their /proc at the call), in real processes.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeScratch, runToEnd } from './stack-support.js';

const scratch = makeScratch();
afterAll(() => scratch.dispose());

const PARENT = `const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const watched = process.argv[2];
const inside = path.join(watched, 'inside');
const empty = path.join(watched, 'empty');
fs.mkdirSync(inside);
fs.mkdirSync(empty);
const stay = "require('node:fs').openSync('log.txt', 'w'); process.stdout.write('ready'); setInterval(() => {}, 60000);";
const start = (cwd) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', stay], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => resolve(child));
  });
(async () => {
  const held = await start(inside);
  const elsewhere = await start(process.argv[3]);
  fs.rmSync(empty, { recursive: true }); // nothing of a child's there
  fs.rmSync(inside, { recursive: true }); // the first child's cwd and its open log
  process.stdout.write(JSON.stringify({ held: held.pid, elsewhere: elsewhere.pid }));
  held.kill('SIGKILL');
  elsewhere.kill('SIGKILL');
})();
`;

describe('node probe: a delete under a live child', () => {
  it("records the child's cwd and fd under the path, and nothing for a delete no child holds anything under", () => {
    const file = scratch.write('parent.cjs', PARENT);
    const outside = join(scratch.root, 'outside');
    mkdirSync(outside);
    const run = runToEnd(process.execPath, [file, scratch.watched, outside], scratch.probedEnv({ HOLDWATCH_WATCHED: scratch.watched }), scratch.root);
    expect(run.status, run.stderr).toBe(0);
    const pids = JSON.parse(run.stdout) as { held: number; elsewhere: number };
    const deletes = scratch.records().records.filter((r) => r.kind === 'delete');
    const inside = join(realpathSync(scratch.watched), 'inside');
    expect(deletes.map((d) => d.kind === 'delete' && { api: d.api, path: d.path, held: d.held, cwd: d.cwd, children: d.children })).toEqual([
      {
        api: 'fs.rmSync',
        path: join(scratch.watched, 'inside'),
        held: [],
        cwd: false,
        children: [
          { pid: pids.held, fd: null, path: inside },
          { pid: pids.held, fd: expect.any(Number) as number, path: join(inside, 'log.txt') },
        ],
      },
    ]);
  });
});
