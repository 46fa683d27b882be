// gastownhall/beads#4935: TestIsJujutsuRepo's subtests chdir into their own t.TempDir() and the parent
// restores the cwd only after all of them, so each TempDir cleanup runs with the process inside the
// directory it removes; on Windows that fails (README.md there). Go runs no probe: the syscall ledger
// sees the chdir and the delete while the directory was still the cwd.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runUnderGoTest } from './corpus.js';

const RUNS = CORPUS_RUNS;
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
// Go's TempDir names end in digits.
const stable = (path: string) => path.replace(/^(Test\w+?)\d+(?=\/)/, '$1*');
const cwd = (dir: string, subtest: string) =>
  `TestIsJujutsuRepo${dir} (deleted) | blocked-cleanup by deleted-while-held | opened in TestIsJujutsuRepo/${subtest} by syscall-ledger | at no open stack`;

describe('corpus: beads TestIsJujutsuRepo under go test -v (each subtest inside the TempDir its cleanup removes)', () => {
  it.skipIf(!HAS_STRACE)(
    `names the test binary's cwd in each subtest's TempDir, deleted while it was there, in ${RUNS} of ${RUNS} runs`,
    async () => {
      const runs = await runUnderGoTest('beads-jj-chdir', stable);
      expectAllExitedZero(runs);
      // One cwd per subtest, each entered in its own subtest; TestGetJujutsuRootRestored leaves its dir first.
      expect(distinct(runs), rowIdentities(runs)).toEqual([
        {
          runs: RUNS,
          summary: [
            cwd('jj_repo_root*/001', 'jj_repo_root'),
            cwd('jj_repo_subdirectory*/001/src/lib', 'jj_repo_subdirectory'),
            cwd('not_a_jj_repo*/001', 'not_a_jj_repo'),
          ],
        },
      ]);
      for (const { record } of runs) {
        const found = record.holders.filter((h) => h.attribution.verdict !== 'in-run');
        expect(found.map((h) => [h.kind, h.processName])).toEqual(found.map(() => ['cwd', 'beadsjj.test']));
      }
    },
    300_000,
  );
});
