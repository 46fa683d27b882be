// biocore/biom-format#951: an h5py file read back and never closed, its temp file unlinked inside the
// test (README.md there). HDF5 opens the file in C, where no audit event fires: no open record, and the
// handle is closed when the test function returns, before any test-boundary listing. The Python
// probe's record of the os.remove, with the descriptors /proc/self/fd named on the path then, is the
// evidence.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { CORPUS, CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const CASE = 'biom-h5py-unlink';
const HAS_H5PY = spawnSync(SYSTEM_PYTHON, ['-c', 'import h5py']).status === 0;
const unittest = () => [SYSTEM_PYTHON, '-m', 'unittest', 'test_table'];
// NamedTemporaryFile goes where TMPDIR says: the watched dir.
const env = (watched: string) => ({ TMPDIR: watched, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: join(CORPUS, CASE, 'site-packages') });

describe('corpus: biom-format test_to_from_hdf5 under unittest (an h5py file unlinked while open: WinError 32 on Windows)', () => {
  it.skipIf(!HAS_H5PY)(
    `names each h5py handle the test's os.remove deleted, in ${RUNS} of ${RUNS} runs`,
    async () => {
      const runs = await runCase(CASE, unittest, RUNS, env);
      expectAllExitedZero(runs);
      // No open line: HDF5's open is C's. test_to_hdf5_empty_table closes its file first and holds nothing.
      const leak = (test: string) =>
        `tmp* (deleted) | blocked-cleanup by deleted-while-held | opened in test_table.TableTests.${test} by self-inventory | at no open stack`;
      expect(distinct(runs), rowIdentities(runs)).toEqual([
        { runs: RUNS, summary: [leak('test_to_from_hdf5_bug_861'), leak('test_to_from_hdf5_creation_date')] },
      ]);
      for (const { record } of runs) {
        const found = record.holders.filter((h) => h.attribution.verdict !== 'in-run');
        // Each named with the delete that fails on Windows: the os.unlink after the with block, its line.
        const deletes = found.map((h) => {
          const open = h.attribution.openStack;
          const call = open?.found ? open.stack.deletedBy : undefined;
          const frame = call?.frames.find((f) => f.user);
          return [h.processName, call?.api, frame ? `${frame.file.split('/').pop()}:${frame.line}` : null];
        });
        expect(deletes.sort()).toEqual([
          ['python3', 'os.remove', 'test_table.py:22'],
          ['python3', 'os.remove', 'test_table.py:37'],
        ]);
      }
    },
    300_000,
  );
});
