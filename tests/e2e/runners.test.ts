// The examples under examples/, run under `holdwatch run` with the real runners (.ci/run installs
// Debian's python3-pytest, bats and golang-go): each leak is found and attributed to its test.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { holderIdentity, runUnderHoldwatch } from '../support/run-cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-e2e-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `bats examples/<example>` under `holdwatch run`, watching the fresh folder `name`, with a Markdown report. */
async function runBatsExample(name: string, example: string) {
  const work = join(dir, name);
  mkdirSync(work);
  const reportPath = join(dir, `${name}-report.md`);
  const out = await runUnderHoldwatch(
    [work],
    ['bats', join(REPO_ROOT, 'examples', example)],
    { EXAMPLE_DIR: work },
    { extraArgs: ['--report', reportPath, '--kill-leftovers'], cwd: dir },
  );
  return { work, out, reportPath };
}

describe('bats: a detached writer races teardown', () => {
  it('catches the teardown failure, names the detached writer, and says the body passed', async () => {
    // The example's teardown waits for the writer's next file before removing the folder: it fails
    // on every run, however the machine is loaded.
    const { work, out, reportPath } = await runBatsExample('bats', 'bats-detached');
    expect(out.code).toBe(1); // bats' own exit code
    expect(out.stdout).toMatch(/^not ok 1 starts the indexer$/m);
    const test = out.record.tests.find((t) => t.name === 'starts the indexer');
    expect(test).toMatchObject({ outcome: 'error', phase: 'teardown', phases: { call: 'passed', teardown: 'error' } });
    const failure = out.record.failures.find((f) => f.kind === 'directory-not-empty');
    expect(failure).toBeDefined();
    expect(failure!.test).toBe('starts the indexer');
    const writer = failure!.holders.find((h) => h.path === join(work, 'work-1', 'indexer.log'));
    expect(writer).toBeDefined();
    expect(writer!.attribution.verdict).toBe('blocked-cleanup');
    expect(writer!.attribution.spawnedDuring).toBe('starts the indexer');
    // Recorded at first sight: the chain back to bats survives the writer's reparenting.
    expect(writer!.attribution.ancestry.map((a) => a.commandLine).join('\n')).toMatch(/bats-exec-test/);
    const report = readFileSync(reportPath, 'utf8');
    expect(report).toMatch(/body passed, teardown failed/);
    expect(report).toContain('work-1/indexer.log');
  });
});

describe('bats: background writers that outlive their test (a shell suite of many small files)', () => {
  it('reads as one row per writer: its forked sleeps fold in, its test is named, nothing is a stranger', async () => {
    const { out, reportPath } = await runBatsExample('writers', 'bats-writers');
    const writerTest = 'starts background writers that outlive the test';
    const { holders } = out.record;
    // Each 5 ms sleep a writer forks holds the log it inherited; once gone before membership listed
    // it, it read as outside-run, and seen before the teardown unlinked the log it kept its own row.
    expect(holders.filter((h) => h.attribution.verdict === 'outside-run').map((h) => `${h.processName} ${h.path}`)).toEqual([]);
    // bash opens each log on a free fd, then moves it to 3: a scan between the two sees the first fd
    // as a short in-run row of the same writer. Every other log row outlives the writers' test.
    const writerLogs = holders.filter((h) => /writer-\d\.log$/.test(h.path));
    const logs = writerLogs.filter((h) => h.attribution.verdict !== 'in-run');
    const moved = writerLogs.filter((h) => h.attribution.verdict === 'in-run');
    const identities = writerLogs.map(holderIdentity);
    expect(logs.map((h) => h.path.slice(-12)).sort(), identities.join('\n')).toEqual(['writer-1.log', 'writer-2.log', 'writer-3.log']);
    expect(
      moved.filter((m) => !logs.some((h) => h.pid === m.pid && h.path === m.path && h.handle !== m.handle)),
      identities.join('\n'),
    ).toEqual([]);
    // The writers are subshells of bats-exec-test, never exec'd: no test number in their environment.
    for (const h of holders.filter((h) => h.path.includes('/bats-2/'))) expect(h.attribution.spawnedDuring).toBe(writerTest);
    const writerEnd = out.record.tests.find((t) => t.name === writerTest)?.endedAt;
    for (const h of logs)
      expect(
        h.attribution.verdict,
        `${h.path} seen ${h.attribution.firstSeenAt}..${h.attribution.lastSeenAt} (first during ${h.attribution.firstSeenDuring}, opened during ${h.attribution.openedDuring} by ${h.attribution.openedDuringBy}), test ended ${writerEnd}`,
      ).toMatch(/^(leaked-past-test|blocked-cleanup)$/);
    const table = readFileSync(reportPath, 'utf8').split('#### Holders')[1]!.split('\n\n<details>')[0]!;
    // The polls' luck decides how many short-lived files are seen (fewer than three of a process in a
    // folder stay unfolded), and whether the teardown's rm is caught in its dirs: 4 to 5 rows idle,
    // more under load; never a hundred.
    const rows = table.split('\n').filter((l) => /^\| `/.test(l));
    expect(rows.length, rows.join('\n')).toBeLessThanOrEqual(15);
  }, 60_000);
});

describe('go test -json: a directory handle and a SQLite child outlive their tests', () => {
  it('reports both as leaked-past-test, each naming its own test', async () => {
    const work = join(dir, 'go');
    mkdirSync(work);
    const out = await runUnderHoldwatch(
      [work],
      ['go', 'test', '-count=1', '-json', '.'],
      { EXAMPLE_DIR: work, GOFLAGS: '-mod=mod', GOPROXY: 'off' },
      { cwd: join(REPO_ROOT, 'examples/go-handles') },
    );
    expect(out.code).toBe(0);
    expect(out.record.tests.map((t) => t.name.replace(/^.*\./, ''))).toEqual(['TestScanCache', 'TestStartsIndexer', 'TestLaterWork']);
    const byPath = (suffix: string) => out.record.holders.filter((h) => h.path === join(work, suffix));
    const [dirHandle] = byPath('cache');
    expect(dirHandle).toMatchObject({ kind: 'dir', processName: 'gohandles.test' });
    // Which test opened it is the syscall ledger's word; when a poll first saw it is timing.
    expect(dirHandle!.attribution).toMatchObject({ verdict: 'leaked-past-test', openedDuring: expect.stringMatching(/TestScanCache$/) });
    for (const file of ['index/index.db', 'index/index.db-wal', 'index/index.db-shm']) {
      const [held] = byPath(file).filter((h) => h.kind === 'file');
      expect(held, file).toBeDefined();
      expect(held!.attribution).toMatchObject({ verdict: 'leaked-past-test', spawnedDuring: expect.stringMatching(/TestStartsIndexer$/) });
    }
    // SQLite maps its -shm file as well as holding it open: one leak, the descriptor's one row.
    expect(byPath('index/index.db-shm').map((h) => h.kind)).toEqual(['file']);
  });
});

describe('node --test: a suite that fills its store', () => {
  it('groups leftovers by the test during which they appeared', async () => {
    const work = join(dir, 'node');
    mkdirSync(work);
    const out = await runUnderHoldwatch([work], [process.execPath, '--test', join(REPO_ROOT, 'examples/node-store/store.test.mjs')], { EXAMPLE_DIR: work });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^(# pass 3|ℹ pass 3)$/m); // Node's own report, as without holdwatch: TAP up to Node 22 on a pipe, spec from 23
    // node --test nests tests by file: each name starts with the file's, from the working directory.
    const inFile = (name: string) => `examples/node-store/store.test.mjs > ${name}`;
    expect(out.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      [inFile('caches thumbnails'), 'passed'],
      [inFile('writes a session db'), 'passed'],
      [inFile('cleans up after itself'), 'passed'],
    ]);
    expect(out.record.leftovers).toEqual([
      { path: join(work, 'store'), createdDuring: inFile('caches thumbnails') },
      { path: join(work, 'store', 'session.db'), createdDuring: inFile('writes a session db') },
    ]);
  });
});

describe('node --test: a share-mode-0 lock file kept open (EBUSY on Windows)', () => {
  it('predicts the Windows teardown failure on Linux: the after hook removes the folder while the lock is held', async () => {
    const work = join(dir, 'node-ebusy');
    mkdirSync(work);
    const out = await runUnderHoldwatch([work], [process.execPath, '--test', join(REPO_ROOT, 'examples/node-ebusy/ebusy.test.mjs')], { EXAMPLE_DIR: work });
    expect(out.code).toBe(0); // Linux removes the directory anyway: the bug hides here
    const lock = out.record.holders.find((h) => h.path === join(work, 'cache', 'cache.lock'));
    expect(lock).toBeDefined();
    // The probe inside the test file's process wrote the lock file's fd still open at that test's end,
    // and saw the after hook's rmSync remove its folder while it was: on Windows, that call fails.
    expect(lock!.attribution).toMatchObject({
      verdict: 'blocked-cleanup',
      verdictBy: 'deleted-while-held',
      openedDuring: 'examples/node-ebusy/ebusy.test.mjs > writes the lock file',
      openedDuringBy: 'probe-open',
    });
  });
});

describe('mocha behind a shell, printing TAP (as `npm test` would run it)', () => {
  it('records each test once, from the probe inside mocha, not again from the TAP on stdout', async () => {
    const work = join(dir, 'mocha-tap');
    mkdirSync(work);
    const mocha = join(REPO_ROOT, 'node_modules/.bin/mocha');
    const out = await runUnderHoldwatch(
      [work],
      ['sh', '-c', `"${mocha}" --reporter tap mongo-log-manager.spec.js`],
      { TMPDIR: work },
      {
        cwd: join(REPO_ROOT, 'tests/corpus/mongodb-log-writer'),
      },
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^ok 3 MongoLogManager can take a custom prefix for log files$/m); // mocha's own TAP, unchanged
    expect(out.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['MongoLogManager > constructor throws with invalid prefixes', 'passed'],
      ['MongoLogManager > allows creating and writing to log files', 'passed'],
      ['MongoLogManager > can take a custom prefix for log files', 'passed'],
    ]);
  });
});
