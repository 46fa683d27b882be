// What the test-boundary wait costs a suite: pytest running 200 short tests (each opens and closes a
// file in the watched dir), with the plugin as holdwatch run adds it, with and without the wait at
// each test's end. The wait's other side is the real listener and a real focused scan of the test
// process (LinuxHolderSource, as the supervisor's focus poll). Rounds alternate the two; medians.
//   node dist/bench/boundary-wait.js   (BENCH_ROUNDS=n)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BoundaryServer } from '../host/run/boundary-server.js';
import { openHolderSource } from '../native/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TESTS = 200;
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const PLUGIN_DIR = join(import.meta.dirname, '..', '..', 'probes', 'python-runners');

const SUITE = `
import os
W = os.environ["BENCH_WATCHED"]
${Array.from({ length: TESTS }, (_, i) => `def test_${i}():\n    with open(os.path.join(W, "f${i % 10}.txt"), "w") as f:\n        f.write("x")\n`).join('\n')}
`;

function pytest(dir: string, watched: string, boundary: string | null): Promise<number> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PYTHONPATH: PLUGIN_DIR,
    PYTHONDONTWRITEBYTECODE: '1',
    HOLDWATCH_EVENTS: join(dir, 'events.jsonl'),
    BENCH_WATCHED: watched,
  };
  if (boundary) env.HOLDWATCH_BOUNDARY = boundary;
  else delete env.HOLDWATCH_BOUNDARY;
  const started = performance.now();
  const child = spawn(PYTHON, ['-m', 'pytest', '-q', '-p', 'holdwatch_pytest', '-p', 'no:cacheprovider', 'test_suite.py'], { cwd: dir, env, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`pytest exited ${code}`))));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'hw-bench-boundary-'));
const watched = join(dir, 'watched');
mkdirSync(watched);
writeFileSync(join(dir, 'test_suite.py'), SUITE);
const source = await openHolderSource({ walkThread: 'worker' });
const resolved = await source.resolveWatchDir(watched);
let scans = 0;
const server = await BoundaryServer.start(
  async (_event, pid) => {
    await source.scan({ dirs: [resolved], pids: [pid] });
    scans++;
  },
  (error) => {
    throw error;
  },
);
try {
  const without: number[] = [];
  const withWait: number[] = [];
  await pytest(dir, watched, null); // warm the file cache and pytest's imports
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await pytest(dir, watched, null));
    withWait.push(await pytest(dir, watched, server.address));
  }
  const a = median(without);
  const b = median(withWait);
  console.log(`test-boundary wait: pytest, ${TESTS} short tests, ${ROUNDS} rounds (median wall time)`);
  console.log(`  without the wait: ${a.toFixed(0)} ms`);
  console.log(`  with the wait:    ${b.toFixed(0)} ms (${scans} boundary scans answered)`);
  console.log(`  per test: +${((b - a) / TESTS).toFixed(2)} ms; ratio ${(b / a).toFixed(2)}x`);
} finally {
  server.close();
  await source.dispose();
  rmSync(dir, { recursive: true, force: true });
}
