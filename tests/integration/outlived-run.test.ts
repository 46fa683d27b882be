// A process that outlives the test command: `holdwatch run` follows it after the command exits (the
// grace), while it holds something under the watched dirs, and names the test that spawned it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUnderHoldwatch } from '../support/run-cli.js';

let dir: string;
const writers: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-outlived-'));
});

afterAll(() => {
  for (const pidFile of writers) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')));
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Waits until the process `argv[2]` is gone (a zombie counts as gone): the command has exited. Then it
 * opens `<argv[1]>-wal` at once and `argv[1]` a second later, long after holdwatch's final scan would
 * have run without the grace, and holds both for `argv[3]` ms.
 */
const WRITER = `
const fs = require('node:fs');
const [target, awaited, holdMs] = process.argv.slice(1);
fs.writeFileSync(target + '.pid', String(process.pid));
const alive = () => { try { return !/^\\d+ \\(.*\\) Z/.test(fs.readFileSync('/proc/' + awaited + '/stat', 'utf8')); } catch { return false; } };
const hold = (file) => { const fd = fs.openSync(file, 'w'); setTimeout(() => fs.closeSync(fd), Number(holdMs)); };
const wait = () => { if (alive()) return void setTimeout(wait, 5); hold(target + '-wal'); setTimeout(() => hold(target), 1000); };
wait();
`;

function suite(name: string, holdMs: number): { cwd: string; target: string } {
  const cwd = mkdtempSync(join(dir, `${name}-`));
  const target = join(cwd, 'late.db');
  writers.push(`${target}.pid`);
  writeFileSync(
    join(cwd, 'detach.test.mjs'),
    `import { test } from 'node:test';
import assert from 'node:assert';
import { spawn } from 'node:child_process';
test('starts a late writer', () => {
  const child = spawn(process.execPath, ['-e', ${JSON.stringify(WRITER)}, ${JSON.stringify(target)}, String(process.ppid), '${holdMs}'], { detached: true, stdio: 'ignore' });
  child.unref();
});
test('a neighbour that fails', () => {
  assert.strictEqual(1, 2);
});
`,
  );
  return { cwd, target };
}

describe('a detached child that opens its file after the command exited', () => {
  it('is followed and reported as outlived-run, spawned during its test; the exit code passes through', async () => {
    const { cwd, target } = suite('node', 1000);
    const out = await runUnderHoldwatch([cwd], [process.execPath, '--test', 'detach.test.mjs'], {}, { cwd, extraArgs: ['--grace', '20000'] });
    expect(out.code, out.stderr).toBe(1); // node --test's own: one test failed
    const held = out.record.holders.filter((h) => h.path === target);
    expect(held, JSON.stringify(out.record.holders.map((h) => [h.path, h.attribution.verdict]))).toHaveLength(1);
    expect(held[0]!.attribution.verdict).toBe('outlived-run');
    // The probe's spawn record names the test running in the parent: the child kept no runner's hint.
    expect(held[0]!.attribution.spawnedDuring).toMatch(/starts a late writer$/);
    expect(held[0]!.attribution.openedDuring ?? null).toBeNull();
    expect(out.stderr).toMatch(/\d+ leftover process(es)? still holding after the command exited/);
  });

  it('is not waited for when it holds nothing under the watched dirs (a grace of ten minutes passes at once)', async () => {
    // The writer holds a file outside the watched dir for longer than the test's own timeout.
    const { cwd } = suite('elsewhere', 45_000);
    const elsewhere = mkdtempSync(join(dir, 'unwatched-'));
    const out = await runUnderHoldwatch([elsewhere], [process.execPath, '--test', 'detach.test.mjs'], {}, { cwd, extraArgs: ['--grace', '600000'] });
    expect(out.code, out.stderr).toBe(1);
    expect(out.record.holders.filter((h) => h.attribution.verdict === 'outlived-run')).toEqual([]);
  });
});
