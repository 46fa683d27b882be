// A pytest run's journal: one entry for a test's end with its phases in it, and what reads the journal
// back (`holdwatch report`) tells each phase as the run's own record does.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { runCli } from '../support/cli.js';
import { runUnderHoldwatch, SYSTEM_PYTHON } from '../support/run-cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-pytest-journal-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUITE = `import pytest


@pytest.fixture
def breaks():
    yield
    raise OSError("teardown broke")


def test_passes():
    assert True


def test_teardown_breaks(breaks):
    assert True
`;

describe('a pytest run journal', () => {
  it("keeps a passing test's phases in its end entry, and reads back as the run's own record", async () => {
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(dir, 'test_suite.py'), SUITE);
    const data = join(dir, 'data');
    const out = await runUnderHoldwatch(
      [work],
      [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_suite.py'],
      { HOLDWATCH_DATA_DIR: data },
      { cwd: dir },
    );
    expect(out.code, out.stderr).toBe(1);
    const journal = /journal (\S+\.jsonl)$/m.exec(out.stderr)?.[1];
    expect(journal, out.stderr).toBeDefined();
    const entries = readFileSync(journal!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { t: string; event?: { name: string; type: string }; phases?: unknown[] });
    const ofTest = (name: string) => entries.filter((e) => e.t === 'test' && e.event!.name.endsWith(name));
    expect(ofTest('::test_passes').map((e) => [e.event!.type, e.phases?.length])).toEqual([
      ['test-start', undefined],
      ['test-end', 6],
    ]);
    // A failing phase is a line of its own, as the plugin wrote it, after the phases before it.
    expect(ofTest('::test_teardown_breaks').map((e) => e.event!.type)).toEqual([
      'test-start',
      'phase',
      'phase',
      'phase',
      'phase',
      'phase',
      'phase',
      'test-end',
    ]);

    const report = await runCli(['report', journal!, '--format', 'json'], { env: { HOLDWATCH_DATA_DIR: data } });
    const fromJournal = JSON.parse(report.stdout) as RunRecord;
    expect(fromJournal.tests).toEqual(out.record.tests);
    const passes = fromJournal.tests.find((t) => t.name.endsWith('::test_passes'))!;
    expect(passes.phases).toEqual({ setup: 'passed', call: 'passed', teardown: 'passed' });
    expect(Object.keys(passes.phaseTimes!)).toEqual(['setup', 'call', 'teardown']);
    const breaks = fromJournal.tests.find((t) => t.name.endsWith('::test_teardown_breaks'))!;
    expect(breaks).toMatchObject({ outcome: 'error', phase: 'teardown', phases: { setup: 'passed', call: 'passed', teardown: 'error' } });
  });
});
