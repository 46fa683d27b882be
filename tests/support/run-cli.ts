// Runs `holdwatch run` with a private data dir and returns its run record.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '../../contract/runs.js';
import { runCli, type CliResult } from './cli.js';

/** Debian's python3 has pytest (python3-pytest); the pyenv python3 on PATH does not. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export async function runUnderHoldwatch(
  watch: string[],
  command: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; extraArgs?: string[] } = {},
): Promise<CliResult & { record: RunRecord }> {
  const scratch = mkdtempSync(join(tmpdir(), 'hw-run-data-'));
  const recordPath = join(scratch, 'record.json');
  const result = await runCli(['run', ...watch.flatMap((w) => ['--watch', w]), '--json', recordPath, ...(options.extraArgs ?? []), '--', ...command], {
    env: { HOLDWATCH_DATA_DIR: scratch, ...env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let record: RunRecord;
  try {
    record = JSON.parse(readFileSync(recordPath, 'utf8')) as RunRecord;
  } catch {
    throw new Error(`no run record; exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  } finally {
    // The run's data dir is this call's: every run left one in the temp dir (hundreds a gate).
    rmSync(scratch, { recursive: true, force: true });
  }
  return { ...result, record };
}
