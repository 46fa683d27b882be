// What the stack probes cost a file-heavy test: 10,000 open/close pairs in Python and in Node,
// unprobed vs probed (injected exactly as holdwatch run injects them). Run after a build:
//   node dist/bench/probe-overhead.js   (BENCH_ROUNDS=n, BENCH_ONLY=python|node, BENCH_PYTHON=/path/to/python3,
//   BENCH_PIN=0 to run a pair unpinned, each on its own CPU)
// The cost of an open/close pair on these VMs drifts by half for tens of seconds at a time (6 us to
// 9 us unprobed, measured; not the CPU, not ASLR), which swung the ratio of processes run one after
// the other from 1.1x to 1.7x between two runs of the same code. So the unprobed and the probed
// process of a round run at once, pinned to the same CPU (taskset), each timing its main thread's
// CPU time: the machine's drift hits both alike (same code on both sides: 0.99x to 1.01x, measured).
// The table shows the median of the rounds' ratios, and their range.
// Targets (issue 5): probed <= 1.5x unprobed per open in Python, <= 2x in Node.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { probeEnvironment } from '../core/stacks/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const PAIRS = 10_000;
const PASSES = 7;
const CHILD_TIMEOUT_MS = 300_000;
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const repo = join(import.meta.dirname, '..', '..');

/** A Python script timing `pairs` open/close pairs; `sites` call sites take turns opening. */
function pythonLoop(sites: number): string {
  const opens = Array.from({ length: sites }, () => '        open(path, "rb").close()').join('\n');
  return `
import sys, time
path = sys.argv[1]
def passes():
    start = time.thread_time()
    for _ in range(${PAIRS / sites}):
${opens}
    return (time.thread_time() - start) / ${PAIRS} * 1e6
passes()
print(min(passes() for _ in range(${PASSES})))
`;
}

const PYTHON_LOOP = pythonLoop(1);
// The same pairs from two call sites taking turns: no open repeats the record before it, so every
// open is captured, formatted and written (the probe skips a repeat of a path's last record).
const PYTHON_LOOP_EACH_RECORDED = pythonLoop(2);

// The first loop inside a pytest test: a real test's stack is pytest and pluggy a dozen frames deep.
const PYTEST_TEST = `
import os, time
def test_opens():
    path = os.environ["BENCH_FILE"]
    def passes():
        start = time.thread_time()
        for _ in range(${PAIRS}):
            open(path, "rb").close()
        return (time.thread_time() - start) / ${PAIRS} * 1e6
    passes()
    best = min(passes() for _ in range(${PASSES}))
    with open(os.environ["BENCH_OUT"], "w") as out:
        out.write(str(best))
`;

const NODE_LOOP = `
const fs = require('node:fs');
const path = process.argv[1];
// The main thread's CPU time (schedstat: ns on CPU), not the process's: V8's helper threads (GC,
// compiler) share the pinned CPU here but run beside the test on any machine with two cores.
const schedstat = '/proc/self/task/' + process.pid + '/schedstat';
const cpuNs = fs.existsSync(schedstat)
  ? () => Number(fs.readFileSync(schedstat, 'utf8').split(' ')[0])
  : () => { const u = process.cpuUsage(); return (u.user + u.system) * 1000; };
function passes() {
  const start = cpuNs();
  for (let i = 0; i < ${PAIRS}; i++) fs.closeSync(fs.openSync(path, 'r'));
  return (cpuNs() - start) / ${PAIRS} / 1000;
}
passes();
let best = Infinity;
for (let i = 0; i < ${PASSES}; i++) best = Math.min(best, passes());
console.log(best);
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const PIN = process.env.BENCH_PIN !== '0' && spawnSync('taskset', ['--version']).status === 0 ? ['taskset', '-c', String(cpus().length - 1)] : [];

function output(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [program, ...rest] = [...PIN, command, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(program!, rest, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench child took over ${CHILD_TIMEOUT_MS / 1000} s: ${command}`));
    }, CHILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

async function microsPerOpen(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const r = await output(command, args, env);
  if (r.status !== 0 || r.stderr.trim() !== '') throw new Error(`bench child failed (${r.status}): ${r.stderr}`);
  return Number(r.stdout.trim());
}

async function microsPerOpenInPytest(testFile: string, file: string, out: string, env: NodeJS.ProcessEnv): Promise<number> {
  const r = await output(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', testFile], { ...env, BENCH_FILE: file, BENCH_OUT: out });
  if (r.status !== 0) throw new Error(`bench pytest failed (${r.status}): ${r.stdout}${r.stderr}`);
  return Number(readFileSync(out, 'utf8'));
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-probe-bench-'));
  try {
    const file = join(scratch, 'file.txt');
    writeFileSync(file, 'x');
    const testFile = join(scratch, 'tests', 'test_opens.py');
    mkdirSync(dirname(testFile));
    writeFileSync(testFile, PYTEST_TEST);
    const logDir = join(scratch, 'probe-log');
    mkdirSync(logDir);
    const plain: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
    delete plain.HOLDWATCH_PROBE_LOG;
    const probed = {
      ...plain,
      ...probeEnvironment({
        logDir,
        pythonProbeDir: join(repo, 'probes', 'python'),
        nodePreload: join(repo, 'probes', 'node', 'preload.cjs'),
        env: plain,
        pathDelimiter: delimiter,
      }),
    };
    const runtimes = [
      { name: 'python', target: 1.5, run: (env: NodeJS.ProcessEnv) => microsPerOpen(PYTHON, ['-c', PYTHON_LOOP, file], env) },
      {
        name: 'python, inside a pytest test',
        target: 1.5,
        run: (env: NodeJS.ProcessEnv) => microsPerOpenInPytest(testFile, file, join(scratch, env === plain ? 'unprobed.txt' : 'probed.txt'), env),
      },
      {
        name: 'python, every open recorded',
        target: 1.5,
        run: (env: NodeJS.ProcessEnv) => microsPerOpen(PYTHON, ['-c', PYTHON_LOOP_EACH_RECORDED, file], env),
      },
      { name: 'node', target: 2, run: (env: NodeJS.ProcessEnv) => microsPerOpen(process.execPath, ['-e', NODE_LOOP, file], env) },
    ];
    console.log(
      `${PAIRS} open/close pairs per pass, main thread's CPU time, best of ${PASSES} passes per process; median of ${ROUNDS} rounds, each an unprobed and a probed process at once on one CPU${PIN.length ? '' : ' (no taskset here: not pinned)'}`,
    );
    console.log(`${'runtime'.padEnd(28)} | unprobed us/open | probed us/open | ratio | target | rounds' ratios`);
    const claims: string[] = [];
    for (const runtime of runtimes.filter((r) => !process.env.BENCH_ONLY || r.name.startsWith(process.env.BENCH_ONLY))) {
      const without: number[] = [];
      const withProbe: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const [a, b] = await Promise.all([runtime.run(plain), runtime.run(probed)]);
        without.push(a);
        withProbe.push(b);
        ratios.push(b / a);
      }
      const ratio = median(ratios);
      // The target is for every round ("in every row, every run"), so the worst round decides.
      const worst = Math.max(...ratios);
      const range = `${Math.min(...ratios).toFixed(2)}x to ${worst.toFixed(2)}x`;
      console.log(
        `${runtime.name.padEnd(28)} | ${median(without).toFixed(2).padStart(16)} | ${median(withProbe).toFixed(2).padStart(14)} | ${ratio.toFixed(2)}x | <= ${runtime.target}x | ${range}`,
      );
      claims.push(
        `${worst <= runtime.target ? 'PASS' : 'MISS'}  probe per open <= ${runtime.target}x unprobed in every round, ${runtime.name}: median ${ratio.toFixed(2)}x, worst ${worst.toFixed(2)}x`,
      );
    }
    console.log(`\n${claims.join('\n')}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
