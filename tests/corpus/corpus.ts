// Runs a corpus case (a real-world leak, reproduced small beside its README) under `holdwatch run`
// again and again, and reads each run as lines a person checks: where the holder is, its verdict and
// what the verdict rests on, the test that opened it and how that is known, and the open line.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { holderIdentity, runUnderHoldwatch } from '../support/run-cli.js';

export const CORPUS = import.meta.dirname;

/**
 * How many times a case runs: 3 by default, HOLDWATCH_CORPUS_RUNS=20 for the "20 of 20" (with
 * both CPUs loaded, as the determinism tier does). Every case reads it.
 */
export const CORPUS_RUNS = runsFrom(process.env.HOLDWATCH_CORPUS_RUNS);

function runsFrom(text: string | undefined): number {
  if (text === undefined || text === '') return 3;
  const runs = Number(text);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`HOLDWATCH_CORPUS_RUNS must be a whole number >= 1, not ${JSON.stringify(text)}`);
  return runs;
}

/**
 * One line per finding, sorted: what the corpus expects, the same in every run. A holder seen only
 * while its test ran (`in-run`: a journal file inside one transaction) is a sighting, not a finding,
 * and whether a poll catches it is timing: it is left out.
 */
export function summarize(record: RunRecord, watched: string, stable: (path: string) => string = stableName): string[] {
  return record.holders
    .filter((h) => h.attribution.verdict !== 'in-run')
    .map((h) => {
      const a = h.attribution;
      const frame = a.openStack?.found ? a.openStack.stack.frames.find((f) => f.user) : undefined;
      const at = frame ? `${basename(frame.file)}:${frame.line}` : 'no open stack';
      return `${stable(relative(watched, h.path))}${h.deleted ? ' (deleted)' : ''} | ${a.verdict} by ${a.verdictBy} | opened in ${a.openedDuring ?? '-'} by ${a.openedDuringBy ?? '-'} | at ${at}`;
    })
    .sort();
}

/**
 * One line per finding whose open belongs to a scope wider than one test (beforeAll, a module fixture,
 * import time): the scope that had to close it, sorted. Findings of a test's own scope are left out.
 */
export function summarizeScopes(record: RunRecord, watched: string, stable: (path: string) => string = stableName): string[] {
  return record.holders
    .filter((h) => h.attribution.verdict !== 'in-run' && h.attribution.scope !== undefined)
    .map((h) => `${stable(relative(watched, h.path))}: ${h.attribution.scope!.kind} ${h.attribution.scope!.name}`)
    .sort();
}

/** Random temp names (Python's mkdtemp `tmpXXXXXXXX`, Go's TempDir numbers) read the same in every run. */
export function stableName(path: string): string {
  return path.replace(/(^|\/)tmp[a-z0-9_]{8}(?=\/|$)/g, '$1tmp*');
}

export interface CaseRun {
  summary: string[];
  /** The scopes of the findings opened outside any one test (summarizeScopes). */
  scopes: string[];
  exitCode: number | null;
  record: RunRecord;
  /** The end of the run's stdout and stderr: what a failing run said. */
  tail: string;
  /** The journal's scans at test ends and exit stops (runUnderHoldwatch), for a failure message. */
  scans: string[];
}

/** Every run exited 0; else the failing runs' codes and what they said (a runner timing out under load shows here). */
export function expectAllExitedZero(runs: readonly CaseRun[]): void {
  const failed = runs.flatMap((r, i) => (r.exitCode === 0 ? [] : [`run ${i + 1}: exit ${r.exitCode}\n${r.tail}`]));
  if (failed.length > 0) throw new Error(`${failed.length} of ${runs.length} runs did not exit 0:\n${failed.join('\n---\n')}`);
}

/**
 * Runs `command(watched)` in the case's folder `runs` times, each with a fresh watched dir, and
 * returns every run's summary. `watched` is where the case's temp files go (pytest's --basetemp...).
 */
export async function runCase(
  caseDir: string,
  command: (watched: string) => string[],
  runs: number,
  env: Record<string, string> | ((watched: string) => Record<string, string>) = {},
  stable: (path: string) => string = stableName,
): Promise<CaseRun[]> {
  const out: CaseRun[] = [];
  for (let i = 0; i < runs; i++) {
    const scratch = mkdtempSync(join(tmpdir(), 'hw-corpus-'));
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    try {
      const result = await runUnderHoldwatch([watched], command(watched), typeof env === 'function' ? env(watched) : env, { cwd: join(CORPUS, caseDir) });
      const tail = `stdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-1500)}`;
      out.push({
        summary: summarize(result.record, watched, stable),
        scopes: summarizeScopes(result.record, watched, stable),
        exitCode: result.code,
        record: result.record,
        tail,
        scans: result.scans,
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return out;
}

/**
 * A Go case under `go test -v` (so through holdwatch's -exec program and strace's ledger), CORPUS_RUNS
 * times, its temp dirs (TMPDIR: t.TempDir's parent) in the watched dir.
 */
export function runUnderGoTest(caseDir: string, stable: (path: string) => string): Promise<CaseRun[]> {
  return runCase(
    caseDir,
    () => ['go', 'test', '-count=1', '-vet=off', '-v', '.'],
    CORPUS_RUNS,
    (watched) => ({ TMPDIR: watched }),
    stable,
  );
}

/** The distinct summaries of some runs, with how many runs gave each: one entry when holdwatch is deterministic. */
export function distinct(runs: readonly CaseRun[]): { summary: string[]; runs: number }[] {
  return tally(runs.map((r) => r.summary)).map(({ lines, runs }) => ({ summary: lines, runs }));
}

/** The distinct scope lines of some runs (summarizeScopes), with how many runs gave each. */
export function distinctScopes(runs: readonly CaseRun[]): { scopes: string[]; runs: number }[] {
  return tally(runs.map((r) => r.scopes)).map(({ lines, runs }) => ({ scopes: lines, runs }));
}

/**
 * Each run's rows by identity (process, start, kind, handle, name), its journal's scans and what holdwatch
 * said on stderr (a Go binary's missed exit stop among it), for a failure message: two rows that summarize
 * alike differ here, and a run that found nothing shows when it looked.
 */
export function rowIdentities(runs: readonly CaseRun[]): string {
  const rows = runs.map(({ record, scans, tail }) => [
    ...record.holders.map(holderIdentity),
    ...record.tests.map((t) => `test ${t.name} ${t.startedAt}..${t.endedAt}`),
    ...scans,
    ...tail
      .split('\n')
      .map((line) => line.replace(/^(stdout|stderr): /, ''))
      .filter((line) => line.startsWith('holdwatch: ')),
  ]);
  return JSON.stringify(rows, null, 1);
}

function tally(lists: readonly string[][]): { lines: string[]; runs: number }[] {
  const byText = new Map<string, { lines: string[]; runs: number }>();
  for (const lines of lists) {
    const text = lines.join('\n');
    const entry = byText.get(text) ?? { lines, runs: 0 };
    entry.runs++;
    byText.set(text, entry);
  }
  return [...byText.values()];
}

/**
 * A Go case's test binary (`go test -c`, standard library only: nothing is downloaded), built once before
 * the file's tests into a scratch dir removed after them; the returned function gives its path.
 */
export function useGoTestBinary(caseDir: string, name: string): () => string {
  let scratch = '';
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'hw-go-bin-'));
    execFileSync('go', ['test', '-c', '-o', join(scratch, name), '.'], {
      cwd: join(CORPUS, caseDir),
      env: { ...process.env, GOFLAGS: '', GOPROXY: 'off', CGO_ENABLED: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return () => join(scratch, name);
}

/** The case's Go test binary run directly (`-test.v`) with no strace to keep a ledger: the exit stop's view, CORPUS_RUNS times. */
export function runTestBinaryWithoutStrace(caseDir: string, binary: () => string, stable: (path: string) => string): Promise<CaseRun[]> {
  return runCase(
    caseDir,
    () => [binary(), '-test.v'],
    CORPUS_RUNS,
    (watched) => ({ TMPDIR: watched, HOLDWATCH_STRACE: '' }),
    stable,
  );
}
