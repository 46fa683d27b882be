// `holdwatch runs [--json]`: the recorded runs in the data dir, newest first: id, start, exit code,
// command. Each journal's first entry is its run-start and its last a run-end when it finished; only
// those two lines are read, so a data dir of long journals lists at once. `--prune` removes old runs
// (host/run/run-retention.ts) instead.
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { terminalCell } from '../core/report/text.js';
import { BadInputError } from '../core/errors.js';
import { dataDirOf, runsPathIn } from '../host/data-dir.js';
import { DEFAULT_RETENTION, pruneRuns, type Retention } from '../host/run/run-retention.js';

export interface RunsOptions {
  json?: boolean;
  prune?: boolean;
  keep?: string;
  maxAge?: string;
}

export interface RunListing {
  runId: string;
  startedAt: string | null;
  command: string[];
  /** null: the run has no run-end (still going, or holdwatch stopped). */
  exitCode: number | null;
  finished: boolean;
  journal: string;
}

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 64 * 1024;

export async function runsCommand(options: RunsOptions): Promise<number> {
  const dir = runsPathIn(dataDirOf(process.env, process.platform));
  if (options.prune) {
    const removed = pruneRuns(dir, retentionOf(options), Date.now());
    if (options.json) process.stdout.write(JSON.stringify({ removed }, null, 2) + '\n');
    else process.stdout.write(`removed ${removed.length} run(s) from ${terminalCell(dir)}\n`);
    return 0;
  }
  if (options.keep !== undefined || options.maxAge !== undefined) throw new BadInputError('--keep and --max-age go with --prune');
  const runs = listRuns(dir);
  if (options.json) process.stdout.write(JSON.stringify(runs, null, 2) + '\n');
  else if (runs.length === 0) process.stdout.write(`no runs recorded in ${dir}\n`);
  else process.stdout.write(runs.map(listingLine).join('\n') + '\n');
  return 0;
}

export function listRuns(dir: string): RunListing[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl') && !n.endsWith('.events.jsonl'));
  } catch {
    return [];
  }
  return names
    .map((name) => describeJournal(join(dir, name)))
    .filter((r): r is RunListing => r !== null)
    .sort((a, b) => String(b.startedAt).localeCompare(String(a.startedAt)));
}

function listingLine(r: RunListing): string {
  const outcome = r.finished ? `exit ${r.exitCode ?? '—'}` : 'unfinished';
  return `${r.runId}  ${r.startedAt ?? '?'}  ${outcome.padEnd(10)}  ${terminalCell(r.command.join(' '))}`;
}

function describeJournal(path: string): RunListing | null {
  const [head, tail] = readEnds(path);
  const start = parseLine(head.split('\n', 1)[0] ?? '');
  if (start?.t !== 'run-start' || typeof start.runId !== 'string') return null;
  const trimmed = tail.trimEnd();
  const lastLine = trimmed.slice(trimmed.lastIndexOf('\n') + 1);
  const end = parseLine(lastLine);
  const finished = end?.t === 'run-end';
  return {
    runId: start.runId,
    startedAt: typeof start.atMs === 'number' ? new Date(start.atMs).toISOString() : null,
    command: Array.isArray(start.command) ? start.command.map(String) : [],
    exitCode: finished && typeof end.exitCode === 'number' ? end.exitCode : null,
    finished,
    journal: path,
  };
}

/** The first and last bytes of the file, as text; one owner closes the descriptor. */
function readEnds(path: string): [string, string] {
  let fd: number | null = null;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return ['', '']; // a FIFO would block the open
    fd = openSync(path, 'r');
    const { size } = stat;
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    readSync(fd, head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(TAIL_BYTES, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return [head.toString('utf8'), tail.toString('utf8')];
  } catch {
    return ['', ''];
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function retentionOf(options: RunsOptions): Retention {
  const count = (value: string | undefined, name: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new BadInputError(`${name} expects a whole number, got "${value}"`);
    return Number(value);
  };
  return { keepRuns: count(options.keep, '--keep', DEFAULT_RETENTION.keepRuns), maxAgeDays: count(options.maxAge, '--max-age', DEFAULT_RETENTION.maxAgeDays) };
}
