// Runs `holdwatch run` with a private data dir and returns its run record.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import { runCli, type CliResult } from './cli.js';

/** Debian's python3 has pytest (python3-pytest); the pyenv python3 on PATH does not. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export async function runUnderHoldwatch(
  watch: string[],
  command: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; extraArgs?: string[] } = {},
): Promise<CliResult & { record: RunRecord; scans: string[] }> {
  const scratch = mkdtempSync(join(tmpdir(), 'hw-run-data-'));
  const recordPath = join(scratch, 'record.json');
  const result = await runCli(['run', ...watch.flatMap((w) => ['--watch', w]), '--json', recordPath, ...(options.extraArgs ?? []), '--', ...command], {
    env: { HOLDWATCH_DATA_DIR: scratch, ...env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let record: RunRecord;
  let scans: string[];
  try {
    record = JSON.parse(readFileSync(recordPath, 'utf8')) as RunRecord;
    scans = scansOf(join(scratch, 'runs'));
  } catch {
    throw new Error(`no run record; exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  } finally {
    // The run's data dir is this call's: every run left one in the temp dir (hundreds a gate).
    rmSync(scratch, { recursive: true, force: true });
  }
  return { ...result, record, scans };
}

/** The journal's scans of a test's end and of an exit stop, each as `<t> <test> <when> [<held>]`: why a failing run saw what it saw. */
function scansOf(runsDir: string): string[] {
  // A caller that names its own data dir keeps its journal there.
  const journal = existsSync(runsDir) ? readdirSync(runsDir).find((name) => /^[^.]+\.jsonl$/.test(name)) : undefined;
  if (!journal) return [];
  return readFileSync(join(runsDir, journal), 'utf8')
    .split('\n')
    .filter((line) => /^\{"t":"(boundary|exit-stop|went-on)"/.test(line))
    .map((line) => {
      const e = JSON.parse(line) as { t: string; test?: string; atMs: number; scanEndedAtMs?: number; held?: string[] };
      const took = e.scanEndedAtMs === undefined ? '' : ` scanned ${Math.round(e.scanEndedAtMs - e.atMs)} ms after`;
      return `${e.t} ${e.test ?? ''}${took} [${(e.held ?? []).join(', ')}]`;
    });
}

/** One row as a failure message names it: its process, start, kind, handle, name, verdict, sightings and test. */
export function holderIdentity({ attribution: a, ...h }: AttributedHolder): string {
  return `${h.pid}@${h.processStartedAtMs} ${h.kind} ${h.handle ?? '-'} ${h.processName} ${a.verdict} seen ${a.firstSeenAt}..${a.lastSeenAt} in ${a.openedDuring} ${h.path}`;
}
