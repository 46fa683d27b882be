// What `holdwatch run` adds to a suite of 300 short tests on each runner, quiet and with both CPUs
// kept busy by other processes (two busy loops, each in a session of its own: startLoad). Each test
// writes and deletes a file in the watched dir. Plain and under run take turns (plain, run, plain,
// run, ...) so load hits both alike; a round is the medians of its pairs; PASS/MISS goes by the worst
// round, and min/median/max of the rounds are printed. Targets (issue 36): loaded, run <= 1.15x plain;
// quiet, run adds <= 250 ms + 1 ms per test. bats forks per test: its rows take the longest by far.
// Loaded rows also time a bare Node parent (spawn the suite, wait, nothing else) in each pair: the
// least any supervisor started as a Node process adds, so a ratio reads against what is avoidable; the
// table also gives run against that parent, round by round.
//   node dist/bench/run-loaded.js   (BENCH_ROUNDS=n, BENCH_PAIRS=n, BENCH_ONLY=pytest,jest,...,
//   BENCH_LOAD=quiet|loaded)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchMain } from './bench-main.js';
import { writeGoShortSuite } from './go-short-suite.js';
import { formatMs, median } from './stats.js';
import { formatTextTable } from './text-table.js';
import { timedCommand, timedCommandCpu, type Timed } from './timed-command.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(REPO, 'bin', 'holdwatch.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
const TESTS = 300;
const LOADED_MAX_RATIO = 1.15;
const QUIET_BUDGET_MS = 250 + 1 * TESTS;
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);

interface Suite {
  name: string;
  available(): boolean;
  /** Writes the suite into `root`; returns the command, run with `root` as its cwd. */
  write(root: string): string[];
}

const numbered = (each: (i: number) => string) => Array.from({ length: TESTS }, (_, i) => each(i)).join('\n');
const nodeBody = (i: number) => `const p = join(process.env.BENCH_WATCHED, 'f${i}'); writeFileSync(p, 'x'); rmSync(p);`;
const NODE_HEAD = `const { writeFileSync, rmSync } = require('node:fs');\nconst { join } = require('node:path');\n`;
const has = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { stdio: 'ignore' }).status === 0;

const SUITES: Suite[] = [
  {
    name: 'pytest',
    available: () => has([PYTHON, '-m', 'pytest', '--version']),
    write(root) {
      writeFileSync(
        join(root, 'test_short.py'),
        `import os\nW = os.environ["BENCH_WATCHED"]\n` +
          numbered((i) => `def test_${i}():\n    p = os.path.join(W, "f${i}")\n    with open(p, "w") as f:\n        f.write("x")\n    os.remove(p)\n`),
      );
      return [PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_short.py'];
    },
  },
  {
    name: 'unittest',
    available: () => true,
    write(root) {
      writeFileSync(
        join(root, 'test_short.py'),
        `import os, unittest\nW = os.environ["BENCH_WATCHED"]\nclass Short(unittest.TestCase):\n` +
          numbered(
            (i) =>
              `    def test_${i}(self):\n        p = os.path.join(W, "f${i}")\n        with open(p, "w") as f:\n            f.write("x")\n        os.remove(p)\n`,
          ),
      );
      return [PYTHON, '-m', 'unittest', 'test_short'];
    },
  },
  {
    name: 'node:test',
    available: () => true,
    write(root) {
      writeFileSync(
        join(root, 'short.test.cjs'),
        `const { test } = require('node:test');\n${NODE_HEAD}` + numbered((i) => `test('t${i}', () => { ${nodeBody(i)} });`),
      );
      return [process.execPath, '--test', 'short.test.cjs'];
    },
  },
  {
    name: 'jest',
    available: () => has([bin('jest'), '--version']),
    write(root) {
      writeFileSync(join(root, 'package.json'), '{ "private": true }\n');
      writeFileSync(join(root, 'short.test.js'), NODE_HEAD + numbered((i) => `test('t${i}', () => { ${nodeBody(i)} });`));
      return [bin('jest'), '--rootDir', '.', '--ci'];
    },
  },
  {
    name: 'vitest',
    available: () => has([bin('vitest'), '--version']),
    write(root) {
      writeFileSync(join(root, 'short.test.cjs'), NODE_HEAD + numbered((i) => `test('t${i}', () => { ${nodeBody(i)} });`));
      return [bin('vitest'), 'run', '--root', '.', '--globals'];
    },
  },
  {
    name: 'go test',
    available: () => has(['go', 'version']),
    write(root) {
      writeGoShortSuite(root, TESTS);
      return ['go', 'test', '-count=1', '.'];
    },
  },
  {
    name: 'bats',
    available: () => has(['bats', '--version']),
    write(root) {
      writeFileSync(
        join(root, 'short.bats'),
        numbered((i) => `@test "t${i}" {\n  echo x > "$BENCH_WATCHED/f${i}"\n  rm "$BENCH_WATCHED/f${i}"\n}\n`),
      );
      return ['bats', 'short.bats'];
    },
  },
];

type Load = 'quiet' | 'loaded';

/** `node -e` with the suite's argv after it: spawns it with the same stdio, waits, exits with its code. */
const BARE_NODE_PARENT = `const r = require('node:child_process').spawnSync(process.argv[1], process.argv.slice(2), { stdio: 'inherit' }); process.exitCode = r.status ?? 1;`;

/**
 * Both CPUs busy: two spinning processes, each in a session of its own like any other program, as each
 * timed command has one (timedCommandCpu). Where the kernel shares CPU between sessions (autogroup),
 * one spinning process with two threads takes a single session's share and leaves a core to the suite;
 * two sessions load the suite as two threads do where CPU is shared thread by thread.
 */
function startLoad(): ChildProcess[] {
  return [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: true }));
}

async function stopLoad(load: ChildProcess[]): Promise<void> {
  await Promise.all(
    load.map(async (spinner) => {
      if (spinner.exitCode !== null || spinner.signalCode !== null) return;
      await new Promise((resolve) => {
        spinner.once('exit', resolve);
        spinner.kill('SIGKILL');
      });
    }),
  );
}

interface Round {
  plainMs: number;
  runMs: number;
  /** The bare Node parent's wall time (loaded rows only). */
  floorMs?: number;
  /** CPU of the whole process tree (holdwatch's included under run): what load multiplies. */
  plainCpuMs: number;
  runCpuMs: number;
}

interface Row {
  suite: string;
  load: Load;
  rounds: Round[];
}

async function measure(suite: Suite, load: Load, scratch: string): Promise<Row> {
  const slug = `${suite.name.replace(/\W+/g, '-')}-${load}`;
  const root = join(scratch, slug);
  const watched = join(scratch, `${slug}-watched`);
  mkdirSync(root);
  mkdirSync(watched);
  const argv = suite.write(root);
  // The data dir outside the watched dir, one per bench: run records do not pile up in the user's.
  const env = { ...process.env, BENCH_WATCHED: watched, HOLDWATCH_DATA_DIR: join(scratch, 'data'), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  const underRun = [process.execPath, CLI, 'run', '--watch', watched, '--', ...argv];
  const underBareNode = [process.execPath, '-e', BARE_NODE_PARENT, ...argv];
  const busy = load === 'loaded' ? startLoad() : null;
  try {
    // One of each first, unmeasured: go builds its test binary, jest and vitest fill their caches.
    await timedCommand(argv, root, env);
    await timedCommand(underRun, root, env);
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const plain: Timed[] = [];
      const run: Timed[] = [];
      const floor: Timed[] = [];
      for (let p = 0; p < PAIRS; p++) {
        plain.push(await timedCommandCpu(argv, root, env));
        run.push(await timedCommandCpu(underRun, root, env));
        if (busy) floor.push(await timedCommandCpu(underBareNode, root, env));
      }
      const wall = (xs: Timed[]) => median(xs.map((x) => x.wallMs));
      const cpu = (xs: Timed[]) => median(xs.map((x) => x.cpuMs));
      rounds.push({ plainMs: wall(plain), runMs: wall(run), plainCpuMs: cpu(plain), runCpuMs: cpu(run), ...(busy ? { floorMs: wall(floor) } : {}) });
    }
    return { suite: suite.name, load, rounds };
  } finally {
    if (busy) await stopLoad(busy);
  }
}

/** The rounds' bare Node parent times; null for quiet rows (not timed there). */
const floorsOf = (r: Row): number[] | null => (r.rounds.every((x) => x.floorMs !== undefined) ? r.rounds.map((x) => x.floorMs!) : null);

/** The bare Node parent against the plain run, worst round; null for quiet rows. */
const floorOf = (r: Row): number | null => {
  const floors = floorsOf(r);
  return floors && Math.max(...floors.map((floor, i) => floor / r.rounds[i]!.plainMs));
};

/** Run against the bare Node parent of the same pairs, each round: what holdwatch adds past any Node supervisor; null for quiet rows. */
const againstFloor = (r: Row): number[] | null => floorsOf(r)?.map((floor, i) => r.rounds[i]!.runMs / floor) ?? null;

/** What a round is judged by: the ratio when loaded, the milliseconds added when quiet. */
const score = (load: Load, r: Round) => (load === 'loaded' ? r.runMs / r.plainMs : r.runMs - r.plainMs);
const formatScore = (load: Load, v: number) => (load === 'loaded' ? `${v.toFixed(2)}x` : `${v >= 0 ? '+' : ''}${formatMs(v)}`);
const spread = (load: Load, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${formatScore(load, sorted[0]!)} / ${formatScore(load, median(sorted))} / ${formatScore(load, sorted.at(-1)!)}`;
};

function report(rows: Row[]): void {
  console.log(`\n== holdwatch run beside the plain run, ${TESTS} short tests: ${ROUNDS} rounds of ${PAIRS} pairs (plain, run in turn), medians per round ==`);
  console.log(
    formatTextTable(
      [
        { header: 'suite' },
        { header: 'load' },
        { header: 'plain ms', align: 'right' },
        { header: 'under run ms', align: 'right' },
        { header: 'cpu plain / run ms', align: 'right' },
        { header: 'run vs plain min / median / max', align: 'right' },
        { header: 'bare Node parent vs plain, worst', align: 'right' },
        { header: 'run vs bare Node parent min / median / max', align: 'right' },
      ],
      rows.map((r) => {
        const floor = floorOf(r);
        const vsFloor = againstFloor(r);
        return [
          r.suite,
          r.load,
          formatMs(median(r.rounds.map((x) => x.plainMs))),
          formatMs(median(r.rounds.map((x) => x.runMs))),
          `${formatMs(median(r.rounds.map((x) => x.plainCpuMs)))} / ${formatMs(median(r.rounds.map((x) => x.runCpuMs)))}`,
          spread(
            r.load,
            r.rounds.map((x) => score(r.load, x)),
          ),
          floor === null ? '' : `${floor.toFixed(2)}x`,
          vsFloor === null ? '' : spread('loaded', vsFloor),
        ];
      }),
    ),
  );
  console.log('');
  for (const r of rows) {
    const worst = Math.max(...r.rounds.map((x) => score(r.load, x)));
    const pass = r.load === 'loaded' ? worst <= LOADED_MAX_RATIO : worst <= QUIET_BUDGET_MS;
    const target = r.load === 'loaded' ? `<= ${LOADED_MAX_RATIO}x plain, both CPUs busy` : `adds <= ${QUIET_BUDGET_MS} ms, quiet`;
    const floor = floorOf(r);
    const context = floor === null ? '' : ` (a bare Node parent: ${floor.toFixed(2)}x)`;
    console.log(`${pass ? 'PASS' : 'MISS'}  run ${target}, ${r.suite} (${TESTS} tests): worst round ${formatScore(r.load, worst)}${context}`);
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',');
  const loads: Load[] = process.env.BENCH_LOAD ? [process.env.BENCH_LOAD as Load] : ['quiet', 'loaded'];
  const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-run-loaded-'));
  try {
    const chosen = SUITES.filter((s) => !only || only.includes(s.name));
    const rows: Row[] = [];
    for (const suite of chosen.filter((s) => s.available())) for (const load of loads) rows.push(await measure(suite, load, scratch));
    report(rows);
    for (const suite of chosen.filter((s) => !s.available())) console.log(`SKIP  ${suite.name}: not installed on this machine`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBenchMain(main);
