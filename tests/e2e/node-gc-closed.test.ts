// A FileHandle the code never closed, under `holdwatch run` with node --test (examples/node-gc-closed):
// the one the collector closed is a closed-by-gc row with its test and open line; the one kept open to
// the end has leaked past its test; the closed one is no row; the suite's output and exit code are a
// plain run's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { runUnderHoldwatch } from '../support/run-cli.js';

const EXAMPLE = join(REPO_ROOT, 'examples/node-gc-closed');
const SUITE = readFileSync(join(EXAMPLE, 'gc-closed.test.mjs'), 'utf8');
const lineOf = (marker: string) => SUITE.split('\n').findIndex((l) => l.includes(marker)) + 1;
/**
 * What may differ between two runs of the same suite: pids, durations, and the fd number in Node's
 * warning (the probe's log holds one descriptor, so the collected handle's number is one higher).
 */
const runless = (text: string) =>
  text
    .replace(/\(node:\d+\)/g, '(node:<pid>)')
    .replace(/file descriptor \d+/g, 'file descriptor <fd>')
    .replace(/\(\d+(\.\d+)?ms\)/g, '(<ms>)')
    .replace(/duration_ms \d+(\.\d+)?/g, 'duration_ms <ms>');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-e2e-node-gc-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('holdwatch run: a FileHandle closed by the garbage collector, not the code (examples/node-gc-closed)', () => {
  it('reports the collected handle as closed-by-gc and the kept one as leaked, with their tests and lines; output unchanged', async () => {
    const args = ['--expose-gc', '--test', 'gc-closed.test.mjs'];
    const env = { EXAMPLE_DIR: join(dir, 'work') };
    const plain = spawnSync(process.execPath, args, { cwd: EXAMPLE, env: { ...process.env, ...env }, encoding: 'utf8' });
    rmSync(env.EXAMPLE_DIR, { recursive: true, force: true });
    const run = await runUnderHoldwatch([dir], [process.execPath, ...args], env, { cwd: EXAMPLE });
    expect(plain.status).toBe(0);
    expect(plain.stderr + plain.stdout).toContain('on garbage collection');
    expect(run.code).toBe(plain.status);
    expect(runless(run.stdout)).toBe(runless(plain.stdout));
    expect(runless(run.stderr.replace(/^holdwatch: .*\n/gm, ''))).toBe(runless(plain.stderr));

    const row = (name: string) => {
      const holder = run.record.holders.find((h) => h.path.endsWith(`/work/${name}`));
      const open = holder?.attribution.openStack;
      return {
        verdict: holder?.attribution.verdict,
        test: holder?.attribution.openedDuring,
        line: open?.found ? open.stack.frames.find((f) => f.user)?.line : undefined,
        closedDuring: holder?.attribution.closedByFinalizer?.during,
      };
    };
    expect(row('collected.log')).toEqual({
      verdict: 'closed-by-gc',
      test: 'gc-closed.test.mjs > a FileHandle left to the collector',
      line: lineOf('// leak: collected'),
      closedDuring: 'gc-closed.test.mjs > a FileHandle left to the collector',
    });
    expect(row('kept.log')).toMatchObject({
      verdict: 'leaked-past-test',
      test: 'gc-closed.test.mjs > a FileHandle never closed',
      line: lineOf('// leak: kept'),
    });
    // The control is closed by its own code: a scan may have seen it open during its test (in-run),
    // but neither the finalizer watch nor the leak check may name it.
    expect(['in-run', undefined]).toContain(row('closed.log').verdict);
    expect(row('closed.log').closedDuring).toBeUndefined();
  }, 60_000);
});
