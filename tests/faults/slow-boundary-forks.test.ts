// A test forks a few hundred children that hold files past its end; the scan at that end is slower
// than the test process waits (here the wait is cut to 1 ms, the shape of 2,000 children against the
// 2 s default). The wait that timed out is journaled, the boundaries after it are still sent and
// scanned, and the children are `leaked-past-test`: what a late scan did not see is never read as
// "not held". The bench row (bench/scale-rows.ts `forks`) is the full size.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JournalEntry } from '../../contract/journal.js';
import { runUnderHoldwatch, SYSTEM_PYTHON } from '../support/run-cli.js';

const FORKS = 300;

let scratch: string;
let watched: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-slow-boundary-'));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
  // The children wait on a pipe the third test closes; the second test holds nothing and ends once the
  // first one's late scan is journaled, so the children were there to be seen. The first test ends once every
  // child said it holds its file: on a loaded machine the last children forked opened theirs during the
  // second test, which then truly opened them.
  writeFileSync(
    join(scratch, 'test_forks.py'),
    `import os, time

W = ${JSON.stringify(watched)}
release_r, release_w = os.pipe()
ready_r, ready_w = os.pipe()


def test_forks_holders():
    for i in range(${FORKS}):
        if os.fork() == 0:
            os.close(release_w)
            f = open(os.path.join(W, "held-%d" % i), "w")
            os.write(ready_w, b"x")
            os.read(release_r, 1)
            os._exit(0)
    ready = 0
    while ready < ${FORKS}:
        ready += len(os.read(ready_r, ${FORKS}))


def test_in_between():
    # Until holdwatch journaled its scan of the first test's end: the children must still hold their
    # files then, and a loaded machine's scan of 300 processes can take seconds.
    runs = os.path.join(os.environ["HOLDWATCH_DATA_DIR"], "runs")
    deadline = time.time() + 120
    while time.time() < deadline and not any(
        '"t":"boundary"' in line and "test_forks_holders" in line
        for name in os.listdir(runs) if name.endswith(".jsonl") and not name.endswith(".events.jsonl")
        for line in open(os.path.join(runs, name))
    ):
        time.sleep(0.05)


def test_releases_them():
    os.close(release_w)
    for _ in range(${FORKS}):
        os.wait()
`,
  );
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it.skipIf(process.platform !== 'linux')(
  `${FORKS} forked holders, their boundary's wait timed out: journaled, later ends still scanned, absence not read as let go`,
  async () => {
    const data = join(scratch, 'data');
    const { record, code } = await runUnderHoldwatch(
      [watched],
      [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_forks.py'],
      { HOLDWATCH_DATA_DIR: data, HOLDWATCH_BOUNDARY_WAIT_MS: '1' },
      { cwd: scratch },
    );
    expect(code).toBe(0);
    const journalFile = readdirSync(join(data, 'runs')).find((f) => /^[^.]+\.jsonl$/.test(f))!;
    const journal = readFileSync(join(data, 'runs', journalFile), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalEntry);
    const forks = 'test_forks.py::test_forks_holders';
    // The first two ends: the process went on before their scans were done, and said so. Each scan
    // takes a tenth of a second; a loaded machine may pause the test process past its 1 ms wait until
    // one end's ack is there (it then did not go on), but not past both.
    const wentOn = journal.flatMap((e) => (e.t === 'went-on' ? [e.test] : []));
    expect(wentOn.filter((test) => test === forks || test === 'test_forks.py::test_in_between')).not.toEqual([]);
    // The ends after it were still sent (not waited for) and scanned, the last test's among them.
    const scanned = journal.flatMap((e) => (e.t === 'boundary' && !e.scope ? [e.test] : []));
    expect(scanned).toEqual(expect.arrayContaining([forks, 'test_forks.py::test_in_between', 'test_forks.py::test_releases_them']));
    // Held when a scan saw them after the test's end: leaked past it. A child the late scan missed (let go
    // by the third test meanwhile) is not known to be held then, and says so; never "in-run" by that scan.
    const children = record.holders.filter((h) => /held-\d+$/.test(h.path));
    const verdicts = new Map<string, number>();
    for (const { attribution: a } of children) verdicts.set(`${a.verdict} by ${a.verdictBy}`, (verdicts.get(`${a.verdict} by ${a.verdictBy}`) ?? 0) + 1);
    const unknown = verdicts.get('in-run by boundary-unconfirmed') ?? 0;
    const seen = `verdicts ${JSON.stringify(Object.fromEntries(verdicts))}`;
    expect(
      [...verdicts.keys()].filter((v) => !v.startsWith('leaked-past-test by ') && v !== 'in-run by boundary-unconfirmed'),
      seen,
    ).toEqual([]);
    expect(children.length - unknown, seen).toBeGreaterThan(FORKS * 0.8);
    const elsewhere = children.filter((h) => h.attribution.openedDuring !== forks);
    expect(
      elsewhere.map(({ path, attribution: a }) => `${path}: ${a.openedDuring} by ${a.openedDuringBy}, first seen ${a.firstSeenAt}`),
      JSON.stringify(journal.filter((e) => e.t === 'went-on' || e.t === 'boundary').map((e) => ({ ...e, held: 'held' in e ? e.held.length : 0 }))),
    ).toEqual([]);
  },
  240_000,
);
