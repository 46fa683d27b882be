// How long recorded runs are kept. Every run leaves a journal, an events file and a probes dir in the
// runs folder; nothing removed them, so the folder only grew. A run is dropped once it is older than
// `maxAgeDays` or not among the newest `keepRuns`, all its files together, unless it is still going
// (its live marker names a holdwatch that is alive). `holdwatch run` applies the defaults once its
// command has started; `holdwatch runs --prune` applies them, or the limits given, on demand.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../inbox/inbox-dir.js';

export interface Retention {
  keepRuns: number;
  maxAgeDays: number;
}

export const DEFAULT_RETENTION: Retention = { keepRuns: 200, maxAgeDays: 30 };

/** `<run id>` and what follows it in the names a run leaves (run-recording.ts, live-run-marker.ts). */
const RUN_FILE = /^(\d{8}T\d{6}-[0-9a-f]+)(\.jsonl|\.events\.jsonl|\.probes|\.live\.json|\.live\.json\.tmp)$/;
const DAY_MS = 86_400_000;

/** Removes the runs the rules drop; returns their ids, newest first. */
export function pruneRuns(runsDir: string, retention: Retention, nowMs: number): string[] {
  const runs = new Map<string, { names: string[]; lastMs: number }>();
  let names: string[];
  try {
    names = readdirSync(runsDir);
  } catch {
    return [];
  }
  if (nothingToDrop(names, retention, nowMs)) return [];
  for (const name of names) {
    const id = RUN_FILE.exec(name)?.[1];
    if (!id) continue;
    const run = runs.get(id) ?? { names: [], lastMs: 0 };
    run.names.push(name);
    runs.set(id, run);
  }
  for (const [id, run] of runs) run.lastMs = lastWrittenMs(runsDir, id, run.names);
  const newestFirst = [...runs.entries()].sort(([, a], [, b]) => b.lastMs - a.lastMs);
  const removed: string[] = [];
  newestFirst.forEach(([id, run], index) => {
    const dropped = index >= retention.keepRuns || nowMs - run.lastMs > retention.maxAgeDays * DAY_MS;
    if (!dropped || stillGoing(runsDir, id)) return;
    for (const name of run.names) rmSync(join(runsDir, name), { recursive: true, force: true });
    removed.push(id);
  });
  return removed;
}

/**
 * No more runs than `keepRuns`, and each started within `maxAgeDays` by its id (newRunId: its start,
 * UTC, to the second): nothing can be dropped, since a run's files are written after its id is made.
 * Then no file is stat'ed: a folder at the default limit holds 600 of them, read at every run.
 */
function nothingToDrop(names: readonly string[], retention: Retention, nowMs: number): boolean {
  const ids = new Set<string>();
  for (const name of names) {
    const id = RUN_FILE.exec(name)?.[1];
    if (!id) continue;
    ids.add(id);
    if (ids.size > retention.keepRuns || !(nowMs - startOf(id) <= retention.maxAgeDays * DAY_MS)) return false;
  }
  return true;
}

/**
 * When the run was last written: its journal's mtime, since the journal is written until the run's
 * end (one stat a run, not three: a folder at the default limit is read at every run); a run
 * whose journal is gone, by its newest file.
 */
function lastWrittenMs(runsDir: string, id: string, names: readonly string[]): number {
  const journal = `${id}.jsonl`;
  const mtimeOf = (name: string) => statSync(join(runsDir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return names.includes(journal) ? mtimeOf(journal) : Math.max(0, ...names.map(mtimeOf));
}

/** A run id's start (epoch ms); NaN when its first part is no time. */
function startOf(id: string): number {
  const t = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-/.exec(id);
  return t ? Date.UTC(Number(t[1]), Number(t[2]) - 1, Number(t[3]), Number(t[4]), Number(t[5]), Number(t[6])) : NaN;
}

function stillGoing(runsDir: string, id: string): boolean {
  try {
    const { pid } = JSON.parse(readFileSync(join(runsDir, `${id}.live.json`), 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && isAlive(pid);
  } catch {
    return false;
  }
}
