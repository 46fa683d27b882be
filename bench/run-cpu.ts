// CPU that `holdwatch run` itself uses while supervising a 60-second run of 200 processes, as a share
// of one core: its own utime+stime (all its threads, not its children), read from /proc until it exits.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));
const TICKS_PER_SECOND = 100;

/** A process's CPU time so far (all its threads), in clock ticks; null when it is gone. */
export function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
  } catch {
    return null;
  }
}

export async function measureRunCpu(processes = 200, seconds = 60): Promise<{ cpuSeconds: number; wallSeconds: number; share: number }> {
  const watched = mkdtempSync(join(tmpdir(), 'hw-bench-cpu-'));
  const data = mkdtempSync(join(tmpdir(), 'hw-bench-cpu-data-'));
  // 200 processes in the run's tree, a tenth of them holding a file under the watched dir.
  const script = `for i in $(seq ${processes}); do if [ $((i % 10)) = 0 ]; then sleep ${seconds} 3>"${watched}/f$i" & else sleep ${seconds} & fi; done; wait`;
  try {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, 'run', '--watch', watched, '--', 'sh', '-c', script], {
      env: { ...process.env, HOLDWATCH_DATA_DIR: data },
      stdio: 'ignore',
    });
    let last = 0;
    const timer = setInterval(() => {
      const ticks = cpuTicks(child.pid!);
      if (ticks !== null) last = ticks;
    }, 200);
    await new Promise((resolve) => child.once('exit', resolve));
    clearInterval(timer);
    const wallSeconds = (Date.now() - started) / 1000;
    const cpuSeconds = last / TICKS_PER_SECOND;
    return { cpuSeconds, wallSeconds, share: cpuSeconds / wallSeconds };
  } finally {
    rmSync(watched, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await measureRunCpu();
  console.log(
    `holdwatch run supervising 200 processes for ${r.wallSeconds.toFixed(1)} s: ${r.cpuSeconds.toFixed(2)} s of CPU = ${(r.share * 100).toFixed(1)}% of one core`,
  );
}
