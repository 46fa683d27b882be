// Files and connections the code never closed, under `holdwatch run` with the real runners
// (examples/python-gc-closed): each is a row of its own, with the test that opened it, its open line
// and the test its finalizer ran in, while the suite's output and exit code are those of a plain run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttributedHolder } from '../../contract/runs.js';
import { REPO_ROOT } from '../support/cli.js';
import { runUnderHoldwatch, SYSTEM_PYTHON } from '../support/run-cli.js';

const EXAMPLE = join(REPO_ROOT, 'examples/python-gc-closed');
const LEAKS = readFileSync(join(EXAMPLE, 'leaks.py'), 'utf8');
const lineOf = (marker: string) => LEAKS.split('\n').findIndex((l) => l.includes(marker)) + 1;
/** The runners' durations ("4 passed in 0.09s", "Ran 4 tests in 0.012s") are the only bytes that may differ. */
const timeless = (text: string) => text.replace(/ in \d+\.\d+s/g, ' in <time>');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-e2e-gc-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The suite plain and under `holdwatch run`, in fresh dirs: both results, and the run's record. */
async function runBoth(name: string, args: string[]) {
  // One dir for both, emptied between them: the ResourceWarnings unittest prints name the file.
  const watched = join(dir, name);
  const env = { EXAMPLE_DIR: join(watched, 'work'), PYTHONDONTWRITEBYTECODE: '1' };
  mkdirSync(watched);
  const plain = spawnSync(SYSTEM_PYTHON, args, { cwd: EXAMPLE, env: { ...process.env, ...env }, encoding: 'utf8' });
  rmSync(env.EXAMPLE_DIR, { recursive: true, force: true });
  const run = await runUnderHoldwatch([watched], [SYSTEM_PYTHON, ...args], env, { cwd: EXAMPLE });
  expect(run.code).toBe(plain.status);
  expect(timeless(run.stdout)).toBe(timeless(plain.stdout));
  // holdwatch's own lines ("holdwatch: run …") follow the suite's stderr; the suite's bytes are unchanged.
  expect(timeless(run.stderr.replace(/^holdwatch: .*\n/gm, ''))).toBe(timeless(plain.stderr));
  return { plain, record: run.record };
}

/** What a user reads per finalized resource: test, open line, the test its finalizer ran in, verdict. */
function finalized(holders: readonly AttributedHolder[]) {
  return holders
    .filter((h) => h.attribution.closedByFinalizer)
    .map((h) => {
      const open = h.attribution.openStack;
      const frame = open?.found ? open.stack.frames.find((f) => f.user) : undefined;
      return { test: h.attribution.openedDuring, line: frame?.line, verdict: h.attribution.verdict, closedDuring: h.attribution.closedByFinalizer!.during };
    })
    .sort((a, b) => (a.test ?? '').localeCompare(b.test ?? ''));
}

const expectedFiles = (prefix: string) =>
  [
    { test: `${prefix}test_path_open`, line: lineOf('# leak: path-open') },
    { test: `${prefix}test_owner`, line: lineOf('# leak: owner') },
    { test: `${prefix}test_cycle`, line: lineOf('# leak: cycle') },
  ].map((e) => ({ ...e, verdict: 'closed-by-gc', closedDuring: e.test }));

describe('holdwatch run: what the garbage collector closed, not the code (examples/python-gc-closed)', () => {
  for (const [runner, args, prefix] of [
    ['pytest', ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', 'test_gc_closed.py'], 'test_gc_closed.py::'],
    ['unittest', ['-m', 'unittest', 'test_unittest_gc_closed'], 'test_unittest_gc_closed.GcClosed.'],
  ] as const) {
    it(`${runner}: each file left to the collector is a closed-by-gc row with its test and open line; output and exit code unchanged`, async () => {
      const { plain, record } = await runBoth(runner, [...args]);
      expect(plain.status).toBe(0);
      const isConnection = (f: { line?: number }) => f.line === lineOf('# leak: sqlite (') || f.line === lineOf('# leak: sqlite collected');
      const files = finalized(record.holders).filter((f) => !isConnection(f));
      expect(files).toEqual(expectedFiles(prefix).sort((a, b) => a.test.localeCompare(b.test)));
      // The connections: one freed by the collection inside its test (closed-by-gc); one never closed
      // and freed by that same collection a test later (held past its test, closed by the collector).
      const connections = finalized(record.holders).filter(isConnection);
      expect(connections).toEqual([
        { test: `${prefix}test_sqlite`, line: lineOf('# leak: sqlite ('), verdict: 'leaked-past-test', closedDuring: `${prefix}test_sqlite_collected` },
        {
          test: `${prefix}test_sqlite_collected`,
          line: lineOf('# leak: sqlite collected'),
          verdict: 'closed-by-gc',
          closedDuring: `${prefix}test_sqlite_collected`,
        },
      ]);
    }, 60_000);
  }

  it('a suite that closes everything has no closed-by-gc row', async () => {
    const { plain, record } = await runBoth('control', ['-m', 'unittest', 'test_closes_everything']);
    expect(plain.status).toBe(0);
    expect(record.tests.map((t) => t.outcome)).toEqual(['passed']);
    expect(finalized(record.holders)).toEqual([]);
    expect(record.holders.filter((h) => h.attribution.verdict === 'closed-by-gc')).toEqual([]);
  }, 60_000);
});
