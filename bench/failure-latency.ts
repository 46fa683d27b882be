// How long from a teardown-failure line being written to the snapshot that it triggers: runs
// `holdwatch run` over a command that prints a failure line stamped with the time it was written,
// then reads the journal for when the triggered scan began. Prints the median over the runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));

export interface LatencyResult {
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function measureFailureLatency(runs = 20): LatencyResult {
  const watched = mkdtempSync(join(tmpdir(), 'hw-bench-failure-'));
  const data = mkdtempSync(join(tmpdir(), 'hw-bench-failure-data-'));
  const script = `setTimeout(() => { const at = Date.now(); console.log("WRITTEN_AT=" + at + " Error: EBUSY: resource busy or locked, rmdir '${watched}/x'"); setTimeout(() => {}, 300); }, 400);`;
  const latencies: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const out = execFileSync(process.execPath, [CLI, 'run', '--watch', watched, '--', process.execPath, '-e', script], {
        env: { ...process.env, HOLDWATCH_DATA_DIR: data },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const writtenAt = Number(/WRITTEN_AT=(\d+)/.exec(out)![1]);
      const journals = readdirSync(join(data, 'runs')).filter((f) => f.endsWith('.jsonl') && !f.includes('.events.'));
      const latest = journals.sort().at(-1)!;
      const failure = readFileSync(join(data, 'runs', latest), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { t: string; scannedAtMs?: number })
        .find((e) => e.t === 'failure');
      if (failure?.scannedAtMs !== undefined) latencies.push(failure.scannedAtMs - writtenAt);
      rmSync(join(data, 'runs'), { recursive: true });
    }
  } finally {
    rmSync(watched, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
  return { runs: latencies.length, medianMs: median(latencies), minMs: Math.min(...latencies), maxMs: Math.max(...latencies) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = measureFailureLatency();
  console.log(`failure line written -> snapshot scan begins: median ${r.medianMs} ms (min ${r.minMs}, max ${r.maxMs}, ${r.runs} runs)`);
}
