// Steady-state poll vs the bare system handle-table call, on the same (Wine or Windows) system.
// Run under Windows node.exe: `npm run bench:wine` (builds, then scripts/wine-node.sh runs this).
// Twice: with the table as it is, then with LOAD_PROCESSES node.exe children holding
// LOAD_FILES files each (thousands of File handles, one per child under the watched dir).
// Prints medians, p90 and means, and the ratio poll/bare; the target is a poll <= 1.5x the bare call.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SystemTables } from '../native/win32/system-tables.js';
import { Win32HolderSource, type Win32ScanStats } from '../native/win32/win32-holder-source.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const LOAD_PROCESSES = Number(process.env.BENCH_LOAD_PROCESSES ?? 20);
const LOAD_FILES = Number(process.env.BENCH_LOAD_FILES ?? 100);

interface Timing {
  median: number;
  p90: number;
  mean: number;
}

/** Runs the steps round-robin, so drift on a shared machine hits them alike. */
async function timeInterleaved(rounds: number, steps: (() => unknown)[]): Promise<Timing[]> {
  const samples: number[][] = steps.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (let s = 0; s < steps.length; s++) {
      const started = performance.now();
      await steps[s]!();
      samples[s]!.push(performance.now() - started);
    }
  }
  return samples.map((values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      median: sorted[Math.floor(sorted.length / 2)]!,
      p90: sorted[Math.floor(sorted.length * 0.9)]!,
      mean: values.reduce((a, b) => a + b, 0) / values.length,
    };
  });
}

const ms = (t: Timing) => `median ${t.median.toFixed(3)} ms, p90 ${t.p90.toFixed(3)} ms, mean ${t.mean.toFixed(3)} ms`;

async function measure(label: string, watched: string, tables: SystemTables): Promise<void> {
  let last: Win32ScanStats = { named: 0, changedPids: [], workerStarts: 0 };
  const source = new Win32HolderSource({ onScanned: (stats) => (last = stats) });
  try {
    const dir = await source.resolveWatchDir(watched);
    const first = await source.scan({ dirs: [dir] });
    if (first.holders.length === 0) throw new Error('bench setup: no holder found');
    await source.scan({ dirs: [dir] }); // steady state from here on
    tables.fileHandles(); // the File type is resolved and the buffer sized outside the timing
    let namedDuringPolls = 0;
    const changed = new Map<number, number>();
    const [bare, parsed, poll] = await timeInterleaved(ROUNDS, [
      () => tables.rawHandleTableBytes(),
      () => tables.fileHandles(),
      async () => {
        await source.scan({ dirs: [dir] });
        namedDuringPolls += last.named;
        for (const pid of last.changedPids) changed.set(pid, (changed.get(pid) ?? 0) + 1);
      },
    ]);
    const [list] = await timeInterleaved(Math.min(ROUNDS, 50), [() => tables.processList()]);
    console.log(`${label}: processes=${first.processCount} file-handles=${first.handleCount} holders=${first.holders.length} rounds=${ROUNDS}`);
    console.log(`  bare NtQuerySystemInformation(64) + copy out: ${ms(bare!)}`);
    console.log(`  the same + parse to File rows (objects):    ${ms(parsed!)}`);
    console.log(`  steady-state poll (scan):                   ${ms(poll!)} (handles named during the timed polls: ${namedDuringPolls})`);
    const changes = [...changed].map(([pid, n]) => `${pid}${pid === process.pid ? ' (this bench)' : ''}: ${n}`).join(', ');
    console.log(`  processes whose File rows changed during the timed polls (pid: polls): ${changes || 'none'}`);
    console.log(`  process list NtQuerySystemInformation(5), no longer in a poll: ${ms(list!)}`);
    console.log(`  ratio poll/bare call: median ${(poll!.median / bare!.median).toFixed(2)}x, mean ${(poll!.mean / bare!.mean).toFixed(2)}x (target <= 1.5x)`);
  } finally {
    await source.dispose();
  }
}

/** Node.exe children each holding `files` files (one under `watched`) until killed. */
async function startLoad(scratch: string, watched: string): Promise<ChildProcess[]> {
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
  for (let i = 0; i < LOAD_PROCESSES; i++) {
    const child = spawn(process.execPath, [script, join(scratch, 'load', String(i)), join(watched, `load-${i}.txt`), String(LOAD_FILES)], {
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

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-bench-'));
  const watched = join(scratch, 'watched');
  mkdirSync(watched);
  writeFileSync(join(watched, 'held.txt'), 'x');
  // This process holds one file under the dir, so the poll has a holder to report every round.
  const fd = openSync(join(watched, 'held.txt'), 'r');
  const tables = new SystemTables();
  let load: ChildProcess[] = [];
  try {
    await measure('table as found', watched, tables);
    load = await startLoad(scratch, watched);
    await measure(`with ${LOAD_PROCESSES} node.exe x ${LOAD_FILES} files`, watched, tables);
  } finally {
    for (const child of load) child.kill();
    await Promise.all(load.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : Promise.resolve())));
    tables.dispose();
    closeSync(fd);
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
