// holdwatch's unittest hook (probes/python-runners/holdwatch_unittest.py, installed by the Python
// stack probe's sitecustomize) under a real `python -m unittest`, -v or not: the timeline with each
// test's outcome; a failing tearDown is the test's error; under pytest the plugin reports alone.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, shape } from '../fixtures/runners/feed.js';
import { runWithProbe } from './probe-run.js';

const PYTHON = '/usr/bin/python3';
const PROBES = join(import.meta.dirname, '../../probes');
const env = { PYTHONPATH: [join(PROBES, 'python'), join(PROBES, 'python-runners')].join(':'), PYTHONDONTWRITEBYTECODE: '1' };

const EXPECTED = [
  'test-start test_example.Example.test_fails',
  'test-end test_example.Example.test_fails failed',
  'test-start test_example.Example.test_passes',
  'test-end test_example.Example.test_passes passed',
  'test-start test_example.Example.test_skipped',
  'test-end test_example.Example.test_skipped skipped',
  'test-start test_example.TeardownFails.test_body_passes',
  'test-end test_example.TeardownFails.test_body_passes error',
];

describe('holdwatch_unittest under a real unittest', () => {
  it.each([[[]], [['-v']]])('python -m unittest %j: every test, in order, with its outcome', (flags) => {
    const run = runWithProbe(PYTHON, ['-m', 'unittest', ...flags, 'test_example'], { cwd: fixture('unittest'), env });
    expect(run.status).toBe(1);
    expect(run.rejectedLines).toBe(0);
    expect(shape(run.events)).toEqual(EXPECTED);
    const teardown = run.events.find((e) => e.name.endsWith('test_body_passes') && e.type === 'test-end');
    expect(teardown?.detail).toMatch(/^PermissionError: \[Errno 32\] The process cannot access the file/);
  });

  it('under pytest the plugin reports the TestCase tests, the hook nothing (no test twice)', () => {
    const run = runWithProbe(PYTHON, ['-m', 'pytest', '-q', '-p', 'holdwatch_pytest', '-p', 'no:cacheprovider', 'test_example.py'], {
      cwd: fixture('unittest'),
      env,
    });
    expect(run.status).toBe(1);
    const ends = run.events.filter((e) => e.type === 'test-end').map((e) => e.name);
    expect(ends).toEqual([
      'test_example.py::Example::test_fails',
      'test_example.py::Example::test_passes',
      'test_example.py::Example::test_skipped',
      'test_example.py::TeardownFails::test_body_passes',
    ]);
  });
});
