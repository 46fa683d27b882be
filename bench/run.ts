// `npm run bench`: builds a fixture at ~2,000 and ~8,000 held fds and times, side by side, the C
// floor, holdwatch's one-shot CLI and warm watcher poll, lsof and fuser. Prints medians, ratios,
// PID-set agreement and a PASS/MISS line per claim. Claims, not assertions: exits 0 either way.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, release } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFloor, runFloor, type FloorMode } from './c-floor.js';
import { parseFuserPids, parseLsofPids, parseSnapshotPids, timeCommandsInTurn } from './external-tools.js';
import { createFixture, destroyAllFixturesNow, type Fixture, type FixtureOptions } from './fixture.js';
import { evaluateClaims, formatBenchTable, formatClaims, type BenchRows } from './report.js';
import type { Measurement } from './measurement.js';
import { WarmPoller } from './warm-poll.js';

// dist/bench/run.js -> the repository root, where bin/ and bench/*.c live.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const SIZES: FixtureOptions[] = [
  { fileHolders: 50, filesPerHolder: 39, cwdEvery: 10, noiseHolders: 3 },
  { fileHolders: 50, filesPerHolder: 159, cwdEvery: 10, noiseHolders: 3 },
];

// Run counts keep the whole bench near a minute on 2 cores; in-process timings are cheap, so more.
const RUNS = { inProcess: 31, external: 7 };

async function measureAll(fixture: Fixture, floorBinary: string): Promise<{ rows: BenchRows; links: number }> {
  const dir = fixture.dir;
  const inProcess = await measureInProcess(dir, floorBinary, RUNS.inProcess);
  // In turn, one of each per round: lsof | grep and fuser take seconds at 8,000 fds, so as many rounds as lsof's.
  const [oneShot, lsofDir, lsofGrep, fuser, nodeStart] = await timeCommandsInTurn(
    [
      {
        // Its V8 compile cache (host/compile-cache.ts) is written by the first run, used by the rest.
        tool: 'holdwatch scan --json (one-shot CLI)',
        command: process.execPath,
        args: [join(repoRoot, 'bin', 'holdwatch.js'), 'scan', dir, '--json'],
        parsePids: parseSnapshotPids,
        okStatuses: [0],
      },
      { tool: `lsof -w +D <dir>`, command: 'lsof', args: ['-w', '+D', dir], parsePids: parseLsofPids },
      {
        tool: `lsof -w -n -P | grep -F <dir>`,
        command: 'sh',
        args: ['-c', 'lsof -w -n -P | grep -F -- "$1"', 'sh', dir],
        parsePids: (out) => parseLsofPids('header\n' + out),
      },
      // fuser only takes names: it is given every path in the tree, which is the best a user can do.
      { tool: `fuser <every path under dir>`, command: 'fuser', args: fixture.treePaths, parsePids: parseFuserPids },
      // What no change to holdwatch can remove from the one-shot row: Node starting and exiting.
      { tool: 'node -e 0 (start-up alone, for scale)', command: process.execPath, args: ['-e', '0'], parsePids: () => new Set<number>() },
    ] as const,
    RUNS.external,
  );
  const { floor, answerFloor, warmPoll, otherPoll } = inProcess;
  const startUp = { ...nodeStart, pids: null };
  return { rows: { floor, answerFloor, oneShot, warmPoll, lsofDir, lsofGrep, fuser, others: [otherPoll, startUp] }, links: inProcess.links };
}

/**
 * The C floors and the warm polls, run in turn (floors, walk thread, calling thread, floors, ...) so a change
 * in machine load hits them alike and their ratio stays fair.
 */
async function measureInProcess(dir: string, floorBinary: string, runs: number) {
  const pollers: WarmPoller[] = [];
  try {
    // On the walk thread, as watch and run poll; and on the calling thread, as a library caller may.
    pollers.push(await WarmPoller.open('holdwatch warm poll (walk thread: as watch and run poll)', dir, 'worker'));
    pollers.push(await WarmPoller.open('holdwatch warm poll (on the calling thread)', dir, 'caller'));
    const floors = {
      fd: floorMeasurement('C floor: /proc/*/fd readdir+readlink, 1 thread'),
      answer: floorMeasurement("C floor, same answer: + cwd/root/exe, maps, holders' stat+cmdline"),
    };
    let links = 0;
    for (let i = 0; i < runs; i++) {
      for (const mode of ['fd', 'answer'] as FloorMode[]) {
        const run = runFloor(floorBinary, dir, 1, mode);
        floors[mode].samplesMs.push(...run.samplesMs);
        floors[mode].cpuSamplesMs!.push(...run.cpuSamplesMs);
        floors[mode].pids ??= run.pids;
        links = run.links;
      }
      for (const poller of pollers) await poller.poll();
    }
    return { floor: floors.fd, answerFloor: floors.answer, warmPoll: pollers[0]!.measurement(), otherPoll: pollers[1]!.measurement(), links };
  } finally {
    for (const poller of pollers) await poller.dispose();
  }
}

function floorMeasurement(tool: string): Measurement {
  return { tool, samplesMs: [], cpuSamplesMs: [], pids: null };
}

// Every tool here runs on one CPU (BENCH_CPU, default 0; BENCH_CPU=none: wherever the scheduler puts
// them). These VMs' two CPUs differ in speed, by up to 2x (a C spin loop: 381 ms on CPU 0, 783 ms on
// CPU 1, measured): unpinned, the floor and a poll may land on different CPUs, and their ratio then
// measures the CPUs. The walk thread shares the CPU with the main thread, which waits for it anyway.
const BENCH_CPU = process.env.BENCH_CPU ?? '0';

/** Runs this bench again under `taskset -c BENCH_CPU`; false when it is pinned already, or not to be. */
function reexecPinned(): boolean {
  if (BENCH_CPU === 'none' || process.env.HOLDWATCH_BENCH_PINNED !== undefined) return false;
  if (spawnSync('taskset', ['--version']).status !== 0) return false;
  const args = ['-c', BENCH_CPU, process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const pinned = spawnSync('taskset', args, { stdio: 'inherit', env: { ...process.env, HOLDWATCH_BENCH_PINNED: BENCH_CPU } });
  process.exitCode = pinned.status ?? 1;
  return true;
}

async function main(): Promise<void> {
  if (reexecPinned()) return;
  const pinned = process.env.HOLDWATCH_BENCH_PINNED;
  console.log(
    `holdwatch bench — node ${process.version}, linux ${release()}, ${cpus().length} cores, load average ${formatLoad()}; ` +
      (pinned ? `every tool on CPU ${pinned} (BENCH_CPU)` : 'not pinned'),
  );
  const floorBinary = compileFloor(repoRoot);
  let current: Fixture | undefined;
  const onSignal = () => {
    destroyAllFixturesNow();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const size of SIZES) {
      current = await createFixture(size);
      try {
        const { rows, links } = await measureAll(current, floorBinary);
        const fixtureHolders = current.holders.filter((h) => h.role !== 'noise').length;
        console.log(
          `\n== ~${current.heldFds} fds held under ${current.dir} by ${fixtureHolders} processes ` +
            `(+${current.holders.length - fixtureHolders} noise processes in <dir>-other); ${links} fd links system-wide; ` +
            `load average ${formatLoad()} ==`,
        );
        console.log(formatBenchTable(rows, current.holders));
        console.log('');
        console.log(formatClaims(evaluateClaims(rows, current.holders)));
      } finally {
        await current.dispose();
        current = undefined;
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Other work on the machine skews every wall-clock number here; the reader should know how much there was. */
function formatLoad(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

main().catch((error: unknown) => {
  console.error(`bench crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
