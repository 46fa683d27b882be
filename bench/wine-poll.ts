// Steady-state poll vs the bare system handle-table call, on the same (Wine or Windows) system.
// Run under Windows node.exe: `npm run bench:wine` (builds, then scripts/wine-node.sh runs this).
// Prints both medians and their ratio; the target is a poll <= 1.5x the bare call.
import { mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemTables } from '../native/win32/system-tables.js';
import { Win32HolderSource } from '../native/win32/win32-holder-source.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(rounds: number, fn: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-bench-'));
  const watched = join(scratch, 'watched');
  mkdirSync(watched);
  writeFileSync(join(watched, 'held.txt'), 'x');
  // This process holds one file under the dir, so the poll has a holder to report every round.
  const fd = openSync(join(watched, 'held.txt'), 'r');
  const tables = new SystemTables();
  const source = new Win32HolderSource();
  try {
    const dir = await source.resolveWatchDir(watched);
    const first = await source.scan({ dirs: [dir] });
    if (first.holders.length === 0) throw new Error('bench setup: the held file was not found');
    tables.fileHandles(); // resolve the File type and size the buffer outside the timing
    const bare = await time(ROUNDS, () => tables.fileHandles());
    const list = await time(ROUNDS, () => tables.processList());
    const poll = await time(ROUNDS, () => source.scan({ dirs: [dir] }));
    const handles = first.handleCount;
    console.log(`processes=${first.processCount} file-handles=${handles} rounds=${ROUNDS}`);
    console.log(`bare NtQuerySystemInformation(64)+parse: ${bare.toFixed(3)} ms (median)`);
    console.log(`process list NtQuerySystemInformation(5): ${list.toFixed(3)} ms (median; every poll needs it for create times)`);
    console.log(`steady-state poll (scan):                ${poll.toFixed(3)} ms (median; handles named by the last poll: ${source.lastScanNamed})`);
    console.log(`ratio poll/bare: ${(poll / bare).toFixed(2)}x (target <= 1.5x)`);
  } finally {
    await source.dispose();
    tables.dispose();
    closeSync(fd);
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
