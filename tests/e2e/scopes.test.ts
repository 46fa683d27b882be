// The same suite under node:test, jest, mocha and vitest (tests/fixtures/scopes): a database opened by
// native code in a suite's beforeAll and never closed, a 1 ms test that leaks one, and a suite whose
// afterAll removes a folder its database still holds. Each runner's probe lists the process's own
// descriptors at every test's and suite's start and end: the native opens get their test or scope,
// and the removal is the Windows failure, predicted, with the line that removed it.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCase } from '../corpus/corpus.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { expectedSummary, SCOPES_RUNNERS } from '../fixtures/scopes/runners.js';

describe.each(SCOPES_RUNNERS)('$runner: native opens, suite scopes, a folder removed while held', (runner) => {
  it('names the leaking test, the beforeAll that never closed, and the afterAll that removed a held folder', async () => {
    const [run] = await runCase(
      runner.caseDir,
      () => runner.command,
      1,
      (watched) => ({ WORK: watched }),
    );
    expect(run!.exitCode, run!.tail).toBe(0);
    expect(run!.summary).toEqual(expectedSummary(runner));
    const byName = new Map(run!.record.holders.map((h) => [h.path.split('/').at(-1), h.attribution]));
    // node:test and mocha name a describe block alone; jest and vitest after the file.
    expect(byName.get('shared.db')?.scope).toEqual({ kind: 'suite', name: `${runner.prefix}store` });
    const removed = byName.get('cache.db')?.openStack;
    expect(removed?.found && removed.stack.deletedBy?.frames.find((f) => f.user)?.file).toMatch(/scopes\/suite\.cjs$/);
  });
});

describe('node:test: a test that moves the working directory into a folder the after hook removes', () => {
  it('names the test and its chdir line, and predicts the failed removal', async () => {
    const command = [process.execPath, '--test', 'chdir.test.mjs'];
    const [run] = await runCase(
      join('..', 'fixtures', 'scopes', 'node-test'),
      () => command,
      1,
      (watched) => ({ WORK: watched }),
    );
    expect(run!.exitCode, run!.tail).toBe(0);
    expect(run!.summary).toEqual([
      'build (deleted) | blocked-cleanup by deleted-while-held | opened in chdir.test.mjs > builds in its own folder by probe-open | at chdir.test.mjs:12',
    ]);
    expect(run!.record.holders.map((h) => h.kind)).toEqual(['cwd']);
  });
});

describe('Python fixture scopes: a module or class fixture closed by its scope is no leak; one held past it is', () => {
  const env = (watched: string) => ({ WORK: watched, PYTHONDONTWRITEBYTECODE: '1' });
  const line = (file: string, verdict: string, opened: string, at: string) => `${file} | ${verdict} | opened in ${opened} | at ${at}`;

  it('pytest: module, class and function fixtures, each by its own scope end', async () => {
    const pytest = [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_scopes.py'];
    const [run] = await runCase(join('..', 'fixtures', 'scopes', 'pytest'), () => pytest, 1, env);
    expect(run!.exitCode, run!.tail).toBe(0);
    expect(run!.summary).toEqual([
      line('kept.log', 'leaked-past-test by self-inventory', '- by probe-open', 'test_scopes.py:19'),
      line('leaked.log', 'leaked-past-test by self-inventory', 'test_scopes.py::test_leaks by self-inventory', 'test_scopes.py:29'),
    ]);
    const kept = run!.record.holders.find((h) => h.path.endsWith('/kept.log'));
    expect(kept?.attribution.scope).toEqual({ kind: 'file', name: 'test_scopes.py' });
  });

  it('unittest: setUpClass and setUpModule, each by its own tearDown', async () => {
    const unittest = [SYSTEM_PYTHON, '-m', 'unittest', 'test_scopes'];
    const [run] = await runCase(join('..', 'fixtures', 'scopes', 'unittest'), () => unittest, 1, env);
    expect(run!.exitCode, run!.tail).toBe(0);
    expect(run!.summary).toEqual([
      line('class.log', 'leaked-past-test by self-inventory', '- by probe-open', 'test_scopes.py:20'),
      line('leaked.log', 'leaked-past-test by self-inventory', 'test_scopes.Store.test_leaks by self-inventory', 'test_scopes.py:26'),
    ]);
    const shared = run!.record.holders.find((h) => h.path.endsWith('/class.log'));
    expect(shared?.attribution.scope).toEqual({ kind: 'suite', name: 'test_scopes.Store' });
  });
});
