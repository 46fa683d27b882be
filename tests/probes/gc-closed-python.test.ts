// Finalizer-closed detection in the Python probe (probes/python/_holdwatch_stacks/gc_watch.py), in
// real pytest and unittest runs of examples/python-gc-closed: each file and sqlite connection the
// code never closed and the collector did is recorded with its test and open line, while the suite's output
// and exit status are what they are without the probe (only the runners' own durations differ).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GcCloseRecord } from '../../contract/probe-log.js';
import { lineOf, makeScratch, PYTHON, runToEnd, topUserFrame } from './stack-support.js';

const EXAMPLE = join(import.meta.dirname, '../../examples/python-gc-closed');
const RUNNERS = join(import.meta.dirname, '../../probes/python-runners');
const LEAKS = readFileSync(join(EXAMPLE, 'leaks.py'), 'utf8');
const scratch = makeScratch();
afterAll(() => scratch.dispose());

const plainEnv: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', EXAMPLE_DIR: scratch.watched };
delete plainEnv.PYTHONPATH;
delete plainEnv.HOLDWATCH_PROBE_LOG;
delete plainEnv.HOLDWATCH_EVENTS;
// What holdwatch run adds: the stack probe, the runner probes and their events file.
const probedEnv = scratch.probedEnv({
  EXAMPLE_DIR: scratch.watched,
  PYTHONPATH: RUNNERS,
  HOLDWATCH_EVENTS: join(scratch.root, 'events.jsonl'),
  PYTEST_ADDOPTS: '-p holdwatch_pytest',
  HOLDWATCH_GC_WATCH: '1', // what holdwatch run sets unless the user said 0
});
delete probedEnv.HOLDWATCH_BOUNDARY;

/** The runners' durations ("4 passed in 0.09s", "Ran 4 tests in 0.012s") are the only bytes that may differ. */
const timeless = (text: string) => text.replace(/ in \d+\.\d+s/g, ' in <time>');

function gcCloses(): GcCloseRecord[] {
  return scratch.records().records.filter((r): r is GcCloseRecord => r.kind === 'gc-close' && r.path.startsWith(scratch.watched));
}

function runBoth(args: string[]) {
  const plain = runToEnd(PYTHON, args, plainEnv, EXAMPLE);
  const probed = runToEnd(PYTHON, args, probedEnv, EXAMPLE);
  expect(probed.status).toBe(plain.status);
  expect(timeless(probed.stdout)).toBe(timeless(plain.stdout));
  expect(timeless(probed.stderr)).toBe(timeless(plain.stderr));
  return { plain, probed };
}

const expected = (prefix: string) =>
  [
    { resource: 'file', test: `${prefix}test_path_open`, line: lineOf(LEAKS, '# leak: path-open') },
    { resource: 'file', test: `${prefix}test_owner`, line: lineOf(LEAKS, '# leak: owner') },
    { resource: 'file', test: `${prefix}test_cycle`, line: lineOf(LEAKS, '# leak: cycle') },
    // The connection kept open through its test (data.db) is no gc-close of its own test: it is
    // closed in test_sqlite_collected's collection, after its test, a leak the run calls leaked-past-test.
    { resource: 'sqlite', test: `${prefix}test_sqlite`, line: lineOf(LEAKS, '# leak: sqlite (') },
    { resource: 'sqlite', test: `${prefix}test_sqlite_collected`, line: lineOf(LEAKS, '# leak: sqlite collected') },
  ].sort((a, b) => a.test.localeCompare(b.test));

const reported = () =>
  gcCloses()
    .map((r) => ({ resource: r.resource, test: r.test, line: topUserFrame(r.frames)?.line }))
    .sort((a, b) => (a.test ?? '').localeCompare(b.test ?? ''));

describe('Python finalizer-closed detection', () => {
  it('pytest: the files and connections left to the collector, each with its test and open line; output unchanged', () => {
    const { plain } = runBoth(['-m', 'pytest', '-p', 'no:cacheprovider', '-q', 'test_gc_closed.py']);
    expect(plain.status).toBe(0);
    expect(reported()).toEqual(expected('test_gc_closed.py::'));
  });

  it('unittest: the same five, while its ResourceWarnings print as they do without holdwatch', () => {
    scratch.records(); // the pytest case's records stay; count only this run's by test name
    const { plain } = runBoth(['-m', 'unittest', 'test_unittest_gc_closed']);
    expect(plain.status).toBe(0);
    // unittest shows ResourceWarnings by default: they name the user's line, not the probe's.
    expect(plain.stderr).toContain('ResourceWarning: unclosed file');
    expect(reported().filter((r) => r.test?.startsWith('test_unittest_gc_closed.'))).toEqual(expected('test_unittest_gc_closed.GcClosed.'));
  });

  it('os.fdopen and tempfile files, and the leaking one of two opens of one path from two lines, either one', () => {
    // Not a test suite: a script, so the records carry no test; what is checked is the api and the line.
    const script = [
      'import gc, os, sys, tempfile',
      'd = sys.argv[1]',
      'def fdopened():',
      '    f = os.fdopen(os.open(os.path.join(d, "fd.txt"), os.O_RDWR | os.O_CREAT), "w")  # leak: fdopen',
      'def temp():',
      '    f = tempfile.TemporaryFile(dir=d)  # leak: tempfile',
      'kept = open(os.path.join(d, "twice.txt"), "w")  # open: kept and closed',
      'def second():',
      '    f = open(os.path.join(d, "twice.txt"))  # leak: second site',
      'fdopened(); temp(); second()',
      'kept.close()',
      'def first():',
      '    f = open(os.path.join(d, "again.txt"), "w")  # leak: first site',
      '    kept = open(os.path.join(d, "again.txt"))  # open: kept past the leak',
      '    return kept',
      'first().close()',
    ].join('\n');
    const before = gcCloses().length;
    const probed = runToEnd(PYTHON, ['-c', script, scratch.watched], probedEnv, EXAMPLE);
    expect(probed.status).toBe(0);
    const line = (marker: string) => script.split('\n').findIndex((l) => l.includes(marker)) + 1;
    const found = gcCloses()
      .slice(before)
      .map((r) => ({ api: r.api, name: r.path.slice(r.path.lastIndexOf('/') + 1), line: topUserFrame(r.frames)?.line }));
    expect(found.filter((r) => r.name.endsWith('.txt') && r.name !== 'fd.txt')).toEqual([
      { api: 'open', name: 'twice.txt', line: line('# leak: second site') },
      { api: 'open', name: 'again.txt', line: line('# leak: first site') },
    ]);
    expect(
      found
        .filter((r) => !r.name.endsWith('.txt') || r.name === 'fd.txt')
        .map((r) => `${r.api} ${r.line}`)
        .sort(),
    ).toEqual(
      // The file object wraps the fd an audited os.open took (tempfile's too): it is known by that open.
      [`os.open ${line('# leak: fdopen')}`, `os.open ${line('# leak: tempfile')}`].sort(),
    );
  });

  it('a suite that closes everything reports none', () => {
    const before = gcCloses().length;
    const { plain } = runBoth(['-m', 'unittest', 'test_closes_everything']);
    expect(plain.status).toBe(0);
    expect(gcCloses()).toHaveLength(before);
  });
});
