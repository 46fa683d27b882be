// The marker a `holdwatch run` in a terminal leaves while it goes (<runs dir>/<runId>.live.json), so a
// UI can list and follow it (live-runs.ts reads them). Writing it needs no schema, so a run loads no zod.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import type { ListedRun } from '../../contract/announce.js';
import { tryUnlink } from '../inbox/inbox-dir.js';
import { writePrivateFile } from '../private-files.js';
import type { ProcessLookup } from './live-runs.js';

/** The one owner of a run's marker: written whole (temp file, then rename), removed by close(). */
export class LiveRunMarker {
  private path: string | null;

  constructor(runsDir: string, run: ListedRun) {
    const path = join(runsDir, `${run.runId}.live.json`);
    try {
      writePrivateFile(`${path}.tmp`, JSON.stringify(run));
      renameSync(`${path}.tmp`, path);
    } catch (error) {
      tryUnlink(`${path}.tmp`); // a full disk leaves no half marker behind
      throw error;
    }
    this.path = path;
  }

  /** Idempotent. */
  close(): void {
    if (this.path === null) return;
    tryUnlink(this.path);
    this.path = null;
  }
}

/** Lists this holdwatch's run while it goes (`holdwatch run`): the marker the UI finds it by. */
export async function markRunListed(runsDir: string, run: Omit<ListedRun, 'pid' | 'pidStartedAtMs'>, processInfo: ProcessLookup): Promise<LiveRunMarker> {
  const self = await processInfo(process.pid);
  return new LiveRunMarker(runsDir, { ...run, pid: process.pid, pidStartedAtMs: self?.startedAtMs ?? null });
}
