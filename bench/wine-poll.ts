// Steady-state poll vs the bare system handle-table call, on the same (Wine or Windows) system.
// Run under Windows node.exe: `npm run bench:wine` (builds, then scripts/wine-node.sh runs this under
// Wine), or natively on Windows: `npm run bench:windows`. The details go to stderr; stdout gets one
// Markdown table, which CI appends to the job's step summary.
// Three times: with the table as it is; with LOAD_PROCESSES node.exe children holding LOAD_FILES
// files each (2,000 File handles, one per child under the watched dir); and with one more child
// holding BIG_HANDLES handles (100,000: one file outside the dir, opened again and again).
// Prints medians, p90 and means, the ratio poll/bare (the target is a poll <= 1.5x the bare call),
// and how long each poll blocked this thread (the longest event-loop delay during it): in the app
// this thread is Electron's main process, whose stalls freeze the window. Beside it, in turn, the block
// the bare call alone causes from a worker thread: under Wine that floor is the wineserver's, and the
// poll is judged against it as its time is against the bare call's. Each timed call comes ROUND_GAP_MS
// after the one before (as cold as the app's polls), over WINDOW_MS at least, so every periodic cost of a
// poll falls inside them (module lists every 2 s, mapped views every 5-10 s, names re-checked within 5 s).
// Wine's table carries no object addresses (nor does 24H2's without SeDebugPrivilege): no name is ever
// proven, so every name is re-checked, in the background, within 5 s, which at 100,000 handles keeps
// Wine's slow name queries busy for good. A table with addresses (Windows before 24H2, or elevated)
// needs no re-checks. Both are measured: the default source, and one that trusts names for ever, which
// costs what a table with addresses costs. Beside them, what a steady poll still has to follow: how
// many File rows the table itself changes between reads.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { HolderSource, ScanResult, WatchDir } from '../core/platform.js';
import { openThreadedHolderSource } from '../native/index.js';
import type { RecheckPolicy } from '../native/win32/name-cache.js';
import { SystemTables } from '../native/win32/system-tables.js';
import { Win32HolderSource, type Win32ScanStats } from '../native/win32/win32-holder-source.js';
import { changedRowCount } from './table-churn.js';
import { formatMarkdownTable, type Column } from './text-table.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const LOAD_PROCESSES = Number(process.env.BENCH_LOAD_PROCESSES ?? 20);
const LOAD_FILES = Number(process.env.BENCH_LOAD_FILES ?? 100);
const BIG_HANDLES = Number(process.env.BENCH_BIG_HANDLES ?? 100_000);
const BIG_ROUNDS = Number(process.env.BENCH_BIG_ROUNDS ?? 60);
/** Before each timed call, as between a watcher's polls (the app polls every 500 ms). */
const ROUND_GAP_MS = Number(process.env.BENCH_ROUND_GAP_MS ?? 20);
/** The timed rounds of each case go on at least this long. */
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 12_000);
/** Consecutive reads of the table whose File rows are compared (how much the table changes by itself). */
const CHURN_READS = 20;
/** Trusts a name for ever: what a table whose rows carry object addresses costs (no re-checks). */
const WITH_ADDRESSES: RecheckPolicy = { diskMs: Infinity, otherMs: Infinity, stalledMs: Infinity, maxPerScan: 0 };

interface Timing {
  min: number;
  median: number;
  max: number;
  p90: number;
  mean: number;
}

/**
 * Runs the steps round-robin, so drift on a shared machine hits them alike: `rounds` at least, for WINDOW_MS
 * at least. With a gap, each step waits its own gap first: a step timed right after another finds the
 * wineserver's and the CPU's caches warm from it (a bare read just before a poll makes the poll's own read
 * take half as long), while the app's polls, 500 ms apart, each start cold.
 */
async function timeInterleaved(rounds: number, steps: (() => unknown)[], gapMs = ROUND_GAP_MS, windowMs = WINDOW_MS): Promise<Timing[]> {
  const samples: number[][] = steps.map(() => []);
  const startedAt = performance.now();
  for (let i = 0; i < rounds || performance.now() - startedAt < windowMs; i++) {
    for (let s = 0; s < steps.length; s++) {
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      const started = performance.now();
      await steps[s]!();
      samples[s]!.push(performance.now() - started);
    }
  }
  return samples.map((values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      min: sorted[0]!,
      median: sorted[Math.floor(sorted.length / 2)]!,
      max: sorted[sorted.length - 1]!,
      p90: sorted[Math.floor(sorted.length * 0.9)]!,
      mean: values.reduce((a, b) => a + b, 0) / values.length,
    };
  });
}

/**
 * Per poll, the longest the thread went without running a due timer while the poll ran: in the app,
 * how long the window stops answering. Measured apart from the timed polls (the timer costs a little).
 * With several polls, they take turns round by round, so drift on a shared machine hits them alike.
 */
async function blockedPerPoll(poll: () => Promise<unknown>, rounds: number): Promise<number[]> {
  return (await blockedInTurn([poll], rounds))[0]!;
}

async function blockedInTurn(polls: (() => Promise<unknown>)[], rounds: number): Promise<number[][]> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const blocked: number[][] = polls.map(() => []);
  for (let i = 0; i < rounds; i++)
    for (let p = 0; p < polls.length; p++) {
      delay.reset();
      delay.enable();
      const ticking = setInterval(() => {}, 1); // always due: its lateness is the block
      await polls[p]!();
      await new Promise((resolve) => setTimeout(resolve, 2));
      clearInterval(ticking);
      delay.disable();
      blocked[p]!.push(delay.max / 1e6);
    }
  return blocked.map((values) => values.sort((a, b) => a - b));
}

/** The bare call made on a worker thread (wine-poll-bare-thread.ts), one per `read()`. */
async function startBareThread(): Promise<{ read: () => Promise<unknown>; close: () => Promise<void> }> {
  const thread = new Worker(new URL('./wine-poll-bare-thread.js', import.meta.url));
  const read = () =>
    new Promise((resolve, reject) => {
      // One listener pair per read, both gone when it settles: a bench of many reads adds none.
      const settle = (done: () => void) => {
        thread.off('message', onMessage);
        thread.off('error', onError);
        done();
      };
      const onMessage = (value: unknown) => settle(() => resolve(value));
      const onError = (error: unknown) => settle(() => reject(error));
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.postMessage('read');
    });
  await read(); // the File type resolved and the buffer sized outside the measurement
  return {
    read,
    close: async () => {
      thread.postMessage('close');
      await new Promise((resolve) => thread.once('exit', resolve));
    },
  };
}

/**
 * Scans until every handle is named (a big table takes several scans' naming budgets, and the first
 * scans may not reach this process's own holder yet): the steady state the timed polls start from.
 */
async function settle(source: HolderSource, dir: WatchDir, namedLast: () => number): Promise<ScanResult> {
  let result = await source.scan({ dirs: [dir] });
  for (let scan = 0; scan < 60 && (result.holders.length === 0 || result.unnamed.length > 0 || namedLast() > 0); scan++)
    result = await source.scan({ dirs: [dir] });
  if (result.holders.length === 0) throw new Error('bench setup: no holder found');
  return result;
}

/** A full garbage collection now (gc() exposed at run time: the bench is run without --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * blockedPerPoll for the source the app uses: on a worker thread, settled as the in-process ones were;
 * in turn with the bare call alone on another worker thread (the floor the OS sets for this thread).
 */
async function blockedOffThread(watched: string, rounds: number, systemRecheck?: RecheckPolicy): Promise<{ scan: number[]; bare: number[] }> {
  const source = await openThreadedHolderSource('caller', 'win32', systemRecheck);
  const bare = await startBareThread();
  try {
    const dir = await source.resolveWatchDir(watched);
    await settle(source, dir, () => 0); // no stats across the thread: settled when nothing is left unnamed
    // The in-process sources' names (100,000 at most) are garbage on this thread now; collected during the
    // measurement, they would stop this thread, which in the app never held them.
    collectGarbage();
    const [scan, floor] = await blockedInTurn([() => source.scan({ dirs: [dir] }), bare.read], rounds);
    return { scan: scan!, bare: floor! };
  } finally {
    await bare.close();
    await source.dispose();
  }
}

interface PollCase {
  first: ScanResult;
  bare: Timing;
  poll: Timing;
  /** Names the polls asked themselves, and re-checked in the background meanwhile, a poll. */
  namedPerPoll: number;
  recheckedPerPoll: number;
  /** pid -> polls in which its File rows had changed. */
  changed: Map<number, number>;
  polls: number;
  /** Sorted longest event-loop delays per poll, this thread (in-process source). */
  blocked: number[];
  /** The same with the source on a worker thread, as the app runs it, and with only the bare call on one. */
  blockedOffThread: { scan: number[]; bare: number[] };
}

/** Times `rounds` polls of a settled Win32HolderSource (`systemRecheck` as given) against the bare call, interleaved. */
async function timePolls(watched: string, tables: SystemTables, rounds: number, systemRecheck?: RecheckPolicy): Promise<PollCase> {
  let last: Win32ScanStats = { named: 0, rechecked: 0, changedPids: [], workerStarts: 0, handleTableReads: 0 };
  const source = new Win32HolderSource({ onScanned: (stats) => (last = stats), ...(systemRecheck ? { systemRecheck } : {}) });
  let measured: Omit<PollCase, 'blockedOffThread'>;
  try {
    const dir = await source.resolveWatchDir(watched);
    const first = await settle(source, dir, () => last.named);
    let named = 0;
    let rechecked = 0;
    let polls = 0;
    const changed = new Map<number, number>();
    const [bare, poll] = await timeInterleaved(rounds, [
      () => tables.rawHandleTableBytes(),
      async () => {
        await source.scan({ dirs: [dir] });
        polls++;
        named += last.named;
        rechecked += last.rechecked;
        for (const pid of last.changedPids) changed.set(pid, (changed.get(pid) ?? 0) + 1);
      },
    ]);
    const blocked = await blockedPerPoll(() => source.scan({ dirs: [dir] }), rounds);
    measured = { first, bare: bare!, poll: poll!, namedPerPoll: named / polls, recheckedPerPoll: rechecked / polls, changed, polls, blocked };
  } finally {
    await source.dispose();
  }
  // One source at a time: the thread's own source names the table again, the in-process one is gone.
  return { ...measured, blockedOffThread: await blockedOffThread(watched, rounds, systemRecheck) };
}

/** One row of the summary table per measured case, and its PASS/MISS lines. */
const summary: string[][] = [];
const claims: string[] = [];
// Targets (issues 17 and 36): a poll <= 1.5x the bare call at ~2,000 and at 100,000+ handles; the host's
// main thread (the app's, with the scan on its worker thread) never blocked more than 16 ms, nor more
// than the bare call alone on a worker thread blocks it, at every size. The table as found (a few dozen
// File handles under Wine) has no poll target: its bare call takes ~0.15 ms, and the poll's fixed work
// (the table's parse, the diff, the result) is then most of the ratio; it is printed for scale.
const POLL_TARGET = 1.5;
const BLOCKED_TARGET_MS = 16;
const SUMMARY_COLUMNS: Column[] = [
  { header: 'handle table' },
  { header: 'names without an address' },
  { header: 'processes', align: 'right' },
  { header: 'File handles', align: 'right' },
  { header: 'File rows changed between reads, max', align: 'right' },
  { header: 'bare call median ms', align: 'right' },
  { header: 'poll min / median / max ms', align: 'right' },
  { header: 'poll p90 ms', align: 'right' },
  { header: 'poll / bare (target <= 1.5x)', align: 'right' },
  { header: 're-checked a poll, off its path', align: 'right' },
  { header: 'thread blocked p90 ms', align: 'right' },
  { header: 'blocked max ms, scan on a worker thread (target <= 16, or <= the bare call alone)', align: 'right' },
  { header: 'blocked max ms, bare call alone on a worker thread', align: 'right' },
  { header: 'blocked max ms, no scan (this machine)', align: 'right' },
];

const ms = (t: Timing) =>
  `min ${t.min.toFixed(3)} ms, median ${t.median.toFixed(3)} ms, p90 ${t.p90.toFixed(3)} ms, max ${t.max.toFixed(3)} ms, mean ${t.mean.toFixed(3)} ms`;
const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
const spread = (sorted: number[]) =>
  `median ${at(sorted, 0.5).toFixed(1)} ms, p90 ${at(sorted, 0.9).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;

async function measure(label: string, watched: string, tables: SystemTables, { rounds = ROUNDS, pollJudged = true } = {}): Promise<void> {
  tables.fileHandles(); // the File type is resolved and the buffer sized outside the timing
  const churn: number[] = [];
  for (let i = 0, before = tables.snapshot(); i < CHURN_READS; i++) {
    const after = tables.snapshot();
    churn.push(changedRowCount(before, after));
    before = after;
  }
  churn.sort((a, b) => a - b);
  const [parsed] = await timeInterleaved(Math.min(rounds, 50), [() => tables.fileHandles()], 0, 0);
  const [list] = await timeInterleaved(Math.min(rounds, 50), [() => tables.processList()], 0, 0);
  const cases = [
    {
      name: 're-checked (Wine)',
      about: 'names re-checked in the background, as Wine (no object addresses) needs',
      poll: await timePolls(watched, tables, rounds),
    },
    {
      name: 'proven (addresses)',
      about: 'no re-checks, as a table with object addresses has it',
      poll: await timePolls(watched, tables, rounds, WITH_ADDRESSES),
    },
  ];
  // What this machine does to the thread without any scan (other processes on the CPU, Wine's timers).
  const idle = await blockedPerPoll(() => new Promise((resolve) => setTimeout(resolve, 3)), rounds);
  const idleMax = idle[idle.length - 1]!;
  const { first } = cases[0]!.poll;
  console.error(`${label}: processes=${first.processCount} file-handles=${first.handleCount} holders=${first.holders.length}`);
  console.error(
    `  File rows changed between ${CHURN_READS} consecutive reads of the table (added or removed): median ${at(churn, 0.5)}, max ${churn[churn.length - 1]}`,
  );
  console.error(`  the table parsed to File rows (objects), for scale: ${ms(parsed!)}`);
  console.error(`  process list NtQuerySystemInformation(5), no longer in a poll: ${ms(list!)}`);
  for (const { name, about, poll } of cases) {
    const ratio = poll.poll.median / poll.bare.median;
    const changes = [...poll.changed].map(([pid, n]) => `${pid}${pid === process.pid ? ' (this bench)' : ''}: ${n}`).join(', ');
    console.error(`  ${about}, ${poll.polls} timed polls ${ROUND_GAP_MS} ms apart:`);
    console.error(`    bare NtQuerySystemInformation(64) into the buffer a poll reads: ${ms(poll.bare)}`);
    console.error(`    steady-state poll (scan):                                 ${ms(poll.poll)}`);
    console.error(`    ratio poll/bare call: median ${ratio.toFixed(2)}x, mean ${(poll.poll.mean / poll.bare.mean).toFixed(2)}x (target <= ${POLL_TARGET}x)`);
    console.error(
      `    names a poll asked itself: ${poll.namedPerPoll.toFixed(1)}; re-checked in the background meanwhile: ${poll.recheckedPerPoll.toFixed(1)} a poll`,
    );
    console.error(`    processes whose File rows changed during the timed polls (pid: polls): ${changes || 'none'}`);
    console.error(`    this thread blocked per poll (longest event-loop delay, ${poll.blocked.length} more polls): ${spread(poll.blocked)}`);
    const { scan: offThread, bare: floor } = poll.blockedOffThread;
    console.error(`    the same, the source on a worker thread (as the app runs it): ${spread(offThread)}`);
    console.error(`    the same, in turn with it, the bare call alone on a worker thread (the OS's own block): ${spread(floor)}`);
    const blockedMax = offThread[offThread.length - 1]!;
    const floorMax = floor[floor.length - 1]!;
    // The poll is judged by what it adds: a block the bare call alone on a thread also causes (Wine's one
    // server answering this thread's waits only after the table) is the OS's, not holdwatch's.
    const blockedPass = blockedMax <= Math.max(BLOCKED_TARGET_MS, floorMax);
    const pollVerdict = !pollJudged ? 'INFO' : ratio <= POLL_TARGET ? 'PASS' : 'MISS';
    claims.push(
      `${pollVerdict}  Windows poll <= ${POLL_TARGET}x the bare NtQuerySystemInformation(64), ${label} (${first.handleCount} File handles), ${about}: ${ratio.toFixed(2)}x${pollJudged ? '' : ' (no target at this size)'}`,
      `${blockedPass ? 'PASS' : 'MISS'}  the host's thread never blocked > ${BLOCKED_TARGET_MS} ms, nor longer than by the bare call alone (scan on its worker thread), ${label}, ${about}: max ${blockedMax.toFixed(1)} ms (bare call alone on a thread ${floorMax.toFixed(1)} ms, no call ${idleMax.toFixed(1)} ms)`,
    );
    summary.push([
      label,
      name,
      String(poll.first.processCount),
      String(poll.first.handleCount),
      String(churn[churn.length - 1]),
      poll.bare.median.toFixed(3),
      `${poll.poll.min.toFixed(3)} / ${poll.poll.median.toFixed(3)} / ${poll.poll.max.toFixed(1)}`,
      poll.poll.p90.toFixed(3),
      `${ratio.toFixed(2)}x${pollJudged ? '' : ' (no target)'}`,
      poll.recheckedPerPoll.toFixed(1),
      at(poll.blocked, 0.9).toFixed(1),
      blockedMax.toFixed(1),
      floorMax.toFixed(1),
      idleMax.toFixed(1),
    ]);
  }
  console.error(`  this thread with no scan, ${idle.length} 3 ms waits (what the machine adds: other processes on the CPU, Wine's timers): ${spread(idle)}`);
}

/** `processes` node.exe children each holding `files` files (one under `watched`) until killed. */
async function startLoad(scratch: string, watched: string, processes = LOAD_PROCESSES, files = LOAD_FILES, name = 'load'): Promise<ChildProcess[]> {
  const script = join(scratch, 'load-holder.cjs');
  writeFileSync(
    script,
    `const fs = require('fs'); const [dir, held, n] = process.argv.slice(2); fs.mkdirSync(dir, { recursive: true });
const keep = [fs.openSync(held, 'w')];
for (let i = 1; i < Number(n); i++) keep.push(fs.openSync(dir + '\\\\f' + i, 'w'));
console.log('ready'); setInterval(() => {}, 1 << 30);`,
  );
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  for (let i = 0; i < processes; i++) {
    const child = spawn(process.execPath, [script, join(scratch, name, String(i)), join(watched, `${name}-${i}.txt`), String(files)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    ready.push(
      new Promise((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', () => resolve());
        child.once('exit', (code) => reject(new Error(`load holder ${i} exited ${code}`)));
      }),
    );
  }
  await Promise.all(ready);
  return children;
}

/**
 * One node.exe child holding `count` File handles to one file outside `watched`: one CreateFileW,
 * duplicated (node's own fds stop at the C runtime's limit, far below what a Windows process may hold).
 */
async function startBigHolder(scratch: string, count: number): Promise<ChildProcess> {
  const script = join(scratch, 'big-holder.cjs');
  writeFileSync(
    script,
    `const fs = require('fs'); const [file, n, koffiPath] = process.argv.slice(2); const koffi = require(koffiPath); fs.writeFileSync(file, 'x');
const k32 = koffi.load('kernel32.dll');
const dup = k32.func('bool DuplicateHandle(void *sp, void *h, void *tp, _Out_ void **out, uint32_t access, bool inherit, uint32_t options)');
const self = k32.func('void *GetCurrentProcess()')();
const createFile = k32.func('void *CreateFileW(str16 name, uint32_t access, uint32_t share, void *security, uint32_t disposition, uint32_t flags, void *template)');
const osHandle = createFile(file, 0x80000000, 7, null, 3, 0, null);
for (let i = 0; i < Number(n); i++) { const out = [null]; if (!dup(self, osHandle, self, out, 0, false, 2)) throw new Error('DuplicateHandle failed at ' + i); }
console.log('ready'); setInterval(() => {}, 1 << 30);`,
  );
  // The script lies in a temp dir, where require('koffi') finds nothing: it gets the repo's koffi by path
  // (natively its win32 binary is beside it; under Wine NODE_PATH supplies it, as for this process).
  const koffiPath = createRequire(import.meta.url).resolve('koffi');
  const child = spawn(process.execPath, [script, join(scratch, 'big-held.txt'), String(count), koffiPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', () => resolve());
    child.once('exit', (code) => reject(new Error(`big holder exited ${code}`)));
  });
  return child;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-bench-'));
  const watched = join(scratch, 'watched');
  mkdirSync(watched);
  const tables = new SystemTables();
  let load: ChildProcess[] = [];
  try {
    // A child holds one file under the dir, so the poll has a holder to report every round (this process
    // is holdwatch's own, never a holder).
    load = await startLoad(scratch, watched, 1, 1, 'held');
    await measure('table as found', watched, tables, { pollJudged: false });
    load.push(...(await startLoad(scratch, watched)));
    await measure(`with ${LOAD_PROCESSES} node.exe x ${LOAD_FILES} files`, watched, tables);
    load.push(await startBigHolder(scratch, BIG_HANDLES));
    await measure(`and one node.exe holding ${BIG_HANDLES} handles`, watched, tables, { rounds: BIG_ROUNDS });
    // WINEPREFIX: scripts/wine-node.sh sets it, and Wine passes the environment on to node.exe.
    const where = process.env.WINEPREFIX ? 'under Wine' : 'on Windows';
    console.log(`### holdwatch poll vs the bare handle-table call (${where}, node ${process.version})\n`);
    console.log(
      'Names without an address: the table carries no object address under Wine (nor on Windows 11 24H2 without SeDebugPrivilege), so no name is ever ' +
        'proven and each is asked again within 5 s, in the background ("re-checked (Wine)"). A table with addresses (Windows before 24H2, or elevated) ' +
        'needs no re-checks: "proven (addresses)" is the same source trusting every name, at that cost. "File rows changed between reads" is how much ' +
        'the table itself changed between 20 reads.\n',
    );
    console.log(formatMarkdownTable(SUMMARY_COLUMNS, summary));
    console.log(`\n${claims.map((c) => `    ${c}`).join('\n')}`); // indented: a code block in the step summary's Markdown
  } finally {
    for (const child of load) child.kill();
    await Promise.all(load.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : Promise.resolve())));
    tables.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
