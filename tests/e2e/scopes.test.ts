// The same suite under node:test, jest, mocha and vitest (tests/fixtures/scopes): a database opened by
// native code in a suite's beforeAll and never closed, a 1 ms test that leaks one, and a suite whose
// afterAll removes a folder its database still holds. Each runner's probe lists the process's own
// descriptors at every test's and suite's start and end: the native opens get their test or scope,
// and the removal is the Windows failure, predicted, with the line that removed it.
import { describe, expect, it } from 'vitest';
import { runCase } from '../corpus/corpus.js';
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
