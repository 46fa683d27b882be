// What `holdwatch run` adds to the wall time of a short suite, on the real runners: 30 tests that
// each write and delete a file in the watched dir, run plain and under `holdwatch run --watch <dir>`
// in turn (plain, run, plain, run, ...) so machine load hits both alike. Prints the medians, the
// difference, and PASS/MISS against the target of issue 7: at most +0.25 s, plus 2 ms per test.
// Go runs twice: with the syscall ledger (its test binary under strace) and without (HOLDWATCH_STRACE
// empty: the exit stop alone); the difference of the two is what strace adds.
//   node dist/bench/run-overhead.js   (BENCH_ROUNDS=n, BENCH_ONLY=pytest,node,go,bats)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchMain } from './bench-main.js';
import { writeGoShortSuite } from './go-short-suite.js';
import { formatMs, median } from './stats.js';
import { formatTextTable } from './text-table.js';
import { timedCommand as timed } from './timed-command.js';

const CLI = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TESTS = 30;
const BUDGET_MS = 250;
const PER_TEST_MS = 2;
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';

interface Suite {
  name: string;
  /** Writes the suite under `root`; returns the command and the cwd it runs in. */
  write(root: string): { argv: string[]; cwd: string };
  /** Whether this machine has the runner. */
  available(): boolean;
  /** Added to holdwatch run's environment only. */
  runEnv?: Record<string, string>;
}

const LEDGER_ON = 'go test, syscall ledger';
const LEDGER_OFF = 'go test, exit stop only';
/** Files each test of the busy Go suite opens and closes: strace stops the binary at each traced call. */
const BUSY_OPENS = 100;
const busy = (name: string) => `${name}, ${BUSY_OPENS} opens/test`;

/**
 * 30 Go tests that write and delete a file (and, `opens` > 0, open and close it that many times);
 * `runEnv` chooses how holdwatch follows the binary.
 */
const goSuite = (name: string, runEnv: Record<string, string>, opens = 0): Suite => ({
  name,
  runEnv,
  available: () => spawnSync('go', ['version']).status === 0 && (!name.startsWith(LEDGER_ON) || spawnSync('strace', ['-V']).status === 0),
  write(root) {
    const reopen = opens > 0 ? `\tfor j := 0; j < ${opens}; j++ {\n\t\tif f, err := os.Open(p); err == nil {\n\t\t\tf.Close()\n\t\t}\n\t}\n` : '';
    writeGoShortSuite(root, TESTS, reopen);
    return { argv: ['go', 'test', '-count=1', '-json', '.'], cwd: root };
  },
});

const numbered = (each: (i: number) => string) => Array.from({ length: TESTS }, (_, i) => each(i)).join('\n');

const SUITES: Suite[] = [
  {
    name: 'pytest',
    available: () => spawnSync(PYTHON, ['-m', 'pytest', '--version']).status === 0,
    write(root) {
      writeFileSync(
        join(root, 'test_short.py'),
        `import os\nW = os.environ["BENCH_WATCHED"]\n` +
          numbered((i) => `def test_${i}():\n    p = os.path.join(W, "f${i}")\n    with open(p, "w") as f:\n        f.write("x")\n    os.remove(p)\n`),
      );
      return { argv: [PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_short.py'], cwd: root };
    },
  },
  {
    name: 'node --test',
    available: () => true,
    write(root) {
      writeFileSync(
        join(root, 'short.test.mjs'),
        `import { test } from 'node:test';\nimport { writeFileSync, rmSync } from 'node:fs';\nimport { join } from 'node:path';\nconst W = process.env.BENCH_WATCHED;\n` +
          numbered((i) => `test('t${i}', () => { const p = join(W, 'f${i}'); writeFileSync(p, 'x'); rmSync(p); });`),
      );
      return { argv: [process.execPath, '--test', 'short.test.mjs'], cwd: root };
    },
  },
  goSuite(LEDGER_ON, {}),
  goSuite(LEDGER_OFF, { HOLDWATCH_STRACE: '' }),
  goSuite(busy(LEDGER_ON), {}, BUSY_OPENS),
  goSuite(busy(LEDGER_OFF), { HOLDWATCH_STRACE: '' }, BUSY_OPENS),
  {
    name: 'bats',
    available: () => spawnSync('bats', ['--version']).status === 0,
    write(root) {
      writeFileSync(
        join(root, 'short.bats'),
        numbered((i) => `@test "t${i}" {\n  echo x > "$BENCH_WATCHED/f${i}"\n  rm "$BENCH_WATCHED/f${i}"\n}\n`),
      );
      return { argv: ['bats', 'short.bats'], cwd: root };
    },
  },
];

interface Row {
  suite: string;
  plainMs: number;
  runMs: number;
}

async function measure(suite: Suite, scratch: string): Promise<Row> {
  const root = join(scratch, suite.name.replace(/\W+/g, '-'));
  const watched = join(scratch, `${suite.name.replace(/\W+/g, '-')}-watched`);
  mkdirSync(root);
  mkdirSync(watched);
  const { argv, cwd } = suite.write(root);
  // The data dir outside the watched dir, one per bench: run records do not pile up in the user's.
  const env = { ...process.env, BENCH_WATCHED: watched, HOLDWATCH_DATA_DIR: join(scratch, 'data'), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  const underRun = [process.execPath, CLI, 'run', '--watch', watched, '--', ...argv];
  const runEnv = { ...env, ...suite.runEnv };
  // One of each first, unmeasured: go builds its test binary, Python writes nothing (no cache), the
  // page cache warms for both commands alike.
  await timed(argv, cwd, env);
  await timed(underRun, cwd, runEnv);
  const plain: number[] = [];
  const run: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    plain.push(await timed(argv, cwd, env));
    run.push(await timed(underRun, cwd, runEnv));
  }
  return { suite: `${suite.name} (${TESTS} tests)`, plainMs: median(plain), runMs: median(run) };
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',');
  const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-run-overhead-'));
  const target = BUDGET_MS + PER_TEST_MS * TESTS;
  try {
    const rows: Row[] = [];
    const skipped: string[] = [];
    for (const suite of SUITES) {
      if (only && !only.some((o) => suite.name.startsWith(o))) continue;
      if (!suite.available()) skipped.push(suite.name);
      else rows.push(await measure(suite, scratch));
    }
    console.log(`\n== what holdwatch run adds to a short suite: medians of ${ROUNDS} rounds, plain and under run in turn ==`);
    console.log(
      formatTextTable(
        [{ header: 'suite' }, { header: 'plain ms', align: 'right' }, { header: 'under run ms', align: 'right' }, { header: 'added ms', align: 'right' }],
        rows.map((r) => [r.suite, formatMs(r.plainMs), formatMs(r.runMs), `+${formatMs(r.runMs - r.plainMs)}`]),
      ),
    );
    console.log('');
    for (const r of rows) {
      const added = r.runMs - r.plainMs;
      console.log(
        `${added <= target ? 'PASS' : 'MISS'}  run adds <= ${BUDGET_MS} ms + ${PER_TEST_MS} ms/test (${target} ms) to ${r.suite}: +${formatMs(added)} ms`,
      );
    }
    for (const [on, off, tracedCalls] of [
      [LEDGER_ON, LEDGER_OFF, 0],
      // Each reopen is an openat and a close, both traced.
      [busy(LEDGER_ON), busy(LEDGER_OFF), TESTS * BUSY_OPENS * 2],
    ] as const) {
      const withLedger = rows.find((r) => r.suite.startsWith(`${on} (`));
      const without = rows.find((r) => r.suite.startsWith(`${off} (`));
      if (!withLedger || !without) continue;
      const added = withLedger.runMs - withLedger.plainMs - (without.runMs - without.plainMs);
      const perCall = tracedCalls > 0 ? `, ${formatMs((added * 1000) / tracedCalls)} µs per reopen call` : '';
      console.log(
        `INFO  the syscall ledger adds ${added >= 0 ? '+' : ''}${formatMs(added)} ms (${formatMs(added / TESTS)} ms/test${perCall}) to ${on}, beside the exit stop alone`,
      );
    }
    for (const name of skipped) console.log(`SKIP  ${name}: not installed on this machine`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBenchMain(main);
