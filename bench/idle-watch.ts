// What `holdwatch watch` costs left open on a dir where nothing changes, with 300 other (idle)
// processes on the machine: its CPU time (all its threads, utime+stime from /proc/<pid>/stat) as a
// share of one core, and its RSS sampled every second. Then how soon the first change is shown, the
// watch having slowed down: a process that was already running opens a file under the dir (only the
// inotify feed can tell), and a process starts there with its cwd in the dir (only the process list
// can). BENCH_IDLE_SECONDS sets the idle time (default 60; 600 is the claim's 10 minutes).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuTicks } from './run-cpu.js';

const CLI = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));
const TICKS_PER_SECOND = 100;
const OTHER_PROCESSES = 300;
const FAST_INTERVAL_MS = 100;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
/** Start-up (loading, the first scans, the pace slowing down) is not what a watch left open costs. */
const SETTLE_SECONDS = 5;
const CPU_TARGET = 0.02;
/** RSS is flat when its peak over the second half is within this of its peak over the first (GC's sawtooth aside). */
const RSS_GROWTH_TARGET = 0.05;
const ROUNDS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function rssKiB(pid: number): number | null {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : null;
}

/** The watch's `appeared` lines, waited for by pid. */
class AppearedLines {
  private readonly seen: { pid: number; atMs: number }[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(watch: ChildProcess) {
    createInterface({ input: watch.stdout! }).on('line', (line) => {
      const event = JSON.parse(line) as { type: string; holder: { pid: number } };
      if (event.type === 'appeared') this.seen.push({ pid: event.holder.pid, atMs: performance.now() });
      this.waiters.forEach((w) => w());
    });
  }

  async at(pid: number, withinMs = 30_000): Promise<number | null> {
    const deadline = performance.now() + withinMs;
    for (;;) {
      const hit = this.seen.find((s) => s.pid === pid);
      if (hit) return hit.atMs;
      if (performance.now() > deadline) return null;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.waiters.delete(done);
          resolve();
        };
        this.waiters.add(done);
        setTimeout(done, 100);
      });
    }
  }
}

/** A python3 that opens the path it is sent and keeps it. */
function spawnOpener(): ChildProcess {
  return spawn('python3', ['-c', 'import sys\nheld = []\nfor line in sys.stdin:\n    held.append(open(line.strip(), "a"))\n'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-idle-'));
  const others: ChildProcess[] = [];
  const children: ChildProcess[] = [];
  const cleanUp = () => {
    for (const child of [...children, ...others]) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });
  try {
    for (let i = 0; i < OTHER_PROCESSES; i++) others.push(spawn('sleep', ['100000'], { stdio: 'ignore' }));
    const openers = Array.from({ length: ROUNDS }, () => spawnOpener());
    children.push(...openers);
    const watch = spawn(process.execPath, [CLI, 'watch', dir, '--json', '--interval', String(FAST_INTERVAL_MS)], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(watch);
    const appeared = new AppearedLines(watch);
    const pid = watch.pid!;
    await sleep(SETTLE_SECONDS * 1000);

    const processes = readFileSync('/proc/loadavg', 'utf8').split(' ')[3]!.split('/')[1];
    const startTicks = cpuTicks(pid)!;
    const startedAt = performance.now();
    const rss: number[] = [];
    while (performance.now() - startedAt < IDLE_SECONDS * 1000) {
      await sleep(1000);
      rss.push(rssKiB(pid)!);
    }
    const cpuSeconds = (cpuTicks(pid)! - startTicks) / TICKS_PER_SECOND;
    const share = cpuSeconds / ((performance.now() - startedAt) / 1000);
    const half = Math.max(1, Math.floor(rss.length / 2));
    const rssFirst = Math.max(...rss.slice(0, half));
    const rssLast = Math.max(...rss.slice(half));
    const growth = (rssLast - rssFirst) / rssFirst;

    // The first change, the watch slowed down again before each (its pace reaches 2 s within ~4 s of quiet).
    const latencies = { open: [] as (number | null)[], start: [] as (number | null)[] };
    for (let round = 0; round < ROUNDS; round++) {
      await sleep(5000);
      const sentAt = performance.now();
      openers[round]!.stdin!.write(join(dir, `opened-${round}.txt`) + '\n');
      const seenAt = await appeared.at(openers[round]!.pid!);
      latencies.open.push(seenAt === null ? null : seenAt - sentAt);
      await sleep(5000);
      const startedInDir = spawn('sleep', ['100000'], { cwd: dir, stdio: 'ignore' });
      const spawnedAt = performance.now();
      children.push(startedInDir);
      const seenStartAt = await appeared.at(startedInDir.pid!);
      latencies.start.push(seenStartAt === null ? null : seenStartAt - spawnedAt);
    }

    const limitMs = 2 * FAST_INTERVAL_MS;
    const worst = (xs: (number | null)[]) => (xs.includes(null) ? null : Math.max(...(xs as number[])));
    const fmt = (xs: (number | null)[]) => xs.map((x) => (x === null ? 'never' : `${Math.round(x)}`)).join(', ');
    console.log(
      `\n== holdwatch watch --interval ${FAST_INTERVAL_MS} on an empty dir, ${OTHER_PROCESSES} idle sleep processes started (${processes} tasks on the machine), ` +
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} ==`,
    );
    console.log(
      `${share <= CPU_TARGET ? 'PASS' : 'MISS'}  idle watch <= ${CPU_TARGET * 100}% of one core over ${IDLE_SECONDS} s (after ${SETTLE_SECONDS} s to settle): ` +
        `${(share * 100).toFixed(2)}% (${cpuSeconds.toFixed(2)} s CPU; ${(share / CPU_TARGET).toFixed(2)}x the budget)`,
    );
    console.log(
      `${growth <= RSS_GROWTH_TARGET ? 'PASS' : 'MISS'}  idle watch RSS flat (its peak over the second half within ${RSS_GROWTH_TARGET * 100}% of the first half's): ` +
        `${(rssFirst / 1024).toFixed(1)} -> ${(rssLast / 1024).toFixed(1)} MiB (${(growth * 100).toFixed(1)}%; median ${(median(rss) / 1024).toFixed(1)}, min ${(Math.min(...rss) / 1024).toFixed(1)})`,
    );
    for (const [what, xs] of [
      ['a running process opens a file under the dir', latencies.open],
      ['a process starts with its cwd in the dir', latencies.start],
    ] as const) {
      const w = worst(xs);
      console.log(
        `${w !== null && w <= limitMs ? 'PASS' : 'MISS'}  first change shown within 2 fast intervals (${limitMs} ms) after the watch slowed down, ${what}: ` +
          `worst of ${ROUNDS} ${w === null ? 'never' : `${Math.round(w)} ms`} (${fmt(xs)} ms)`,
      );
    }
  } finally {
    cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(`bench crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
