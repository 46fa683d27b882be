// Runs `holdwatch run` started in a terminal, findable while they go: each leaves
// <runs dir>/<runId>.live.json beside its journal from its start to its end, so a UI can list and
// follow it. A marker outlives its run only when holdwatch was killed outright; its process is then
// gone (or its pid reused: identity is pid and start time), and the next listing removes it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListedRunSchema, type ListedRun } from '../../contract/announce.js';
import type { ProcessInfo } from '../../contract/holders.js';
import type { ActiveRun } from '../../contract/runs.js';
import { tryUnlink } from '../inbox/inbox-dir.js';

const MARKER_FILE = /^(.+)\.live\.json$/;
/** Start times read twice may differ by a clock tick; a reused pid's differs by far more. */
const SAME_START_MS = 1000;

export type { ListedRun };

export type ProcessLookup = (pid: number) => Promise<ProcessInfo | null>;

/** True while the run's holdwatch is the process that wrote the marker. */
export async function isRunning(run: ListedRun, processInfo: ProcessLookup): Promise<boolean> {
  const info = await processInfo(run.pid);
  return info !== null && (run.pidStartedAtMs === null || Math.abs(info.startedAtMs - run.pidStartedAtMs) <= SAME_START_MS);
}

/** The runs going now, newest first; stale markers are removed, unreadable ones skipped (one may be mid-rename). */
export async function listLiveRuns(runsDir: string, processInfo: ProcessLookup): Promise<ListedRun[]> {
  let names: string[];
  try {
    names = readdirSync(runsDir);
  } catch {
    return []; // no run was ever recorded here
  }
  const runs: ListedRun[] = [];
  for (const name of names) {
    const runId = MARKER_FILE.exec(name)?.[1];
    if (runId === undefined) continue;
    const run = readMarker(join(runsDir, name));
    if (!run || run.runId !== runId) continue;
    if (await isRunning(run, processInfo)) runs.push(run);
    else tryUnlink(join(runsDir, name));
  }
  return runs.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
}

export function toActiveRun({ runId, command, cwd, watched, startedAt, pid }: ListedRun): ActiveRun {
  return { runId, command, cwd, watched, startedAt, pid };
}

function readMarker(path: string): ListedRun | null {
  try {
    const parsed = ListedRunSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
