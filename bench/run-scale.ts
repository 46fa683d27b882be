// The scale rows of issue 35, each run plain and under `holdwatch run --watch <dir>`: wall time, the
// peak RSS of the command's own process (plain) and of holdwatch's (run), the ratio, and PASS/MISS
// against the issue's targets where it sets one. One sample a row: a full-size row takes minutes.
// SIGINT forwarded once is a test (tests/faults), not a row.
//   node dist/bench/run-scale.js   (BENCH_ONLY=pytest,tree,forks,output; BENCH_SCALE=0.05 for a quick look)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchMain } from './bench-main.js';
import { SCALE_ROWS, type RecordFacts, type RowSetup, type ScaleRow } from './scale-rows.js';
import { formatRatio, ratio } from './stats.js';
import { formatTextTable } from './text-table.js';

const CLI = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const RSS_SAMPLE_MS = 50;

interface Sample {
  wallS: number;
  /** VmHWM of the spawned process, read every RSS_SAMPLE_MS until it exits. */
  peakMb: number;
}

/** Runs `argv` to its end, its stdout read and counted here, its own peak RSS sampled. */
async function measure(argv: readonly string[], setup: RowSetup, env: NodeJS.ProcessEnv): Promise<Sample> {
  const started = process.hrtime.bigint();
  const child = spawn(argv[0]!, argv.slice(1), { cwd: setup.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let peakKb = 0;
  const sample = () => {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(safeRead(`/proc/${child.pid}/status`))?.[1];
    if (hwm) peakKb = Math.max(peakKb, Number(hwm));
  };
  const timer = setInterval(sample, RSS_SAMPLE_MS);
  let bytes = 0;
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (bytes += d.length));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  clearInterval(timer);
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0 || (setup.stdoutBytes !== undefined && bytes !== setup.stdoutBytes))
    throw new Error(`${argv.join(' ').slice(0, 100)}: exit ${code}, ${bytes} bytes out:\n${stderr}`);
  return { wallS, peakMb: peakKb / 1024 };
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // exited between samples
  }
}

function recordFacts(jsonPath: string): RecordFacts {
  const record = JSON.parse(readFileSync(jsonPath, 'utf8')) as { tests: unknown[]; holders: { attribution: { verdict: string } }[] };
  const verdicts = new Map<string, number>();
  for (const h of record.holders) verdicts.set(h.attribution.verdict, (verdicts.get(h.attribution.verdict) ?? 0) + 1);
  return { tests: record.tests.length, verdicts };
}

interface RowResult {
  row: ScaleRow;
  plain: Sample;
  run: Sample;
  claims: string[];
}

async function measureRow(row: ScaleRow, scratch: string): Promise<RowResult> {
  const setup = row.build(scratch, SCALE);
  const env = { ...process.env, ...setup.env, HOLDWATCH_DATA_DIR: join(scratch, 'data') };
  const json = join(scratch, `${row.key}.json`);
  const plain = await measure(setup.argv, setup, env);
  const run = await measure([process.execPath, CLI, 'run', '--watch', setup.watched, '--json', json, '--', ...setup.argv], setup, env);
  const { maxRatio, maxHoldwatchMb, record } = row.targets;
  const claims: string[] = [];
  const r = ratio(run.wallS, plain.wallS);
  if (maxRatio !== undefined) claims.push(`${r <= maxRatio ? 'PASS' : 'MISS'}  ${row.label(SCALE)}: run <= ${maxRatio}x plain: ${formatRatio(r)}`);
  if (maxHoldwatchMb !== undefined)
    claims.push(`${run.peakMb <= maxHoldwatchMb ? 'PASS' : 'MISS'}  ${row.label(SCALE)}: holdwatch <= ${maxHoldwatchMb} MB: ${run.peakMb.toFixed(0)} MB`);
  if (record) {
    const wrong = record(recordFacts(json));
    claims.push(`${wrong === null ? 'PASS' : 'MISS'}  ${row.label(SCALE)}: the record${wrong === null ? ' is as expected' : `: ${wrong}`}`);
  }
  return { row, plain, run, claims };
}

export async function measureScaleRows(only?: readonly string[]): Promise<string> {
  const results: RowResult[] = [];
  for (const row of SCALE_ROWS.filter((r) => !only || only.includes(r.key))) {
    const scratch = mkdtempSync(join(tmpdir(), `hw-bench-scale-${row.key}-`));
    try {
      results.push(await measureRow(row, scratch));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const table = formatTextTable(
    [
      { header: 'row' },
      { header: 'plain s', align: 'right' },
      { header: 'run s', align: 'right' },
      { header: 'run / plain', align: 'right' },
      { header: 'plain MB', align: 'right' },
      { header: 'holdwatch MB', align: 'right' },
    ],
    results.map(({ row, plain, run }) => [
      row.label(SCALE),
      plain.wallS.toFixed(2),
      run.wallS.toFixed(2),
      formatRatio(ratio(run.wallS, plain.wallS)),
      plain.peakMb.toFixed(0),
      run.peakMb.toFixed(0),
    ]),
  );
  return [table, ...results.flatMap((r) => r.claims)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runBenchMain(async () => {
    console.log(`run-scale: each row plain and under holdwatch run (scale ${SCALE}; plain MB: the command's own process, sampled every ${RSS_SAMPLE_MS} ms)`);
    console.log(await measureScaleRows(process.env.BENCH_ONLY?.split(',')));
  });
}
