// Holdings of a probed process's children that its delete met (the delete record's `children`, read
// from /proc by the deleting process's probe just before the call) but no scan saw: a child killed
// right before the cleanup is often gone before the next poll. The record is the sighting: each such
// holding becomes a holder reference, matched to stacks as a scanned holder is. Pure.
import type { DeleteRecord, ProcessRecord } from '../../contract/probe-log.js';
import type { HolderRef, ProbeIndex } from './match.js';
import { isProcessStart } from './process-threads.js';

export interface UnseenChildHold {
  ref: HolderRef;
  /** The child's parent: the process that deleted the path. */
  ppid: number;
  /** Its command line, from its own probe's process record or its parent's spawn record; empty when neither. */
  argv: string[];
  /** The delete that met it: the last moment it was seen held. */
  call: DeleteRecord;
  /** The watched dir (display form) it lies under. */
  watchedDir: string;
}

export interface ChildHoldQuery {
  /** The watched dir a recorded path lies under (display form), or null when under none. */
  watchedDirOf: (path: string) => string | null;
  /** A scan saw this holding: pid, path and handle (`fd N`, null for a working directory). */
  seen: (pid: number, path: string, handle: string | null) => boolean;
}

export function findUnseenChildHolds(index: ProbeIndex, query: ChildHoldQuery): UnseenChildHold[] {
  const found = new Map<string, UnseenChildHold>();
  for (const records of index.byPid.values()) {
    for (const call of records) {
      if (call.kind !== 'delete') continue;
      for (const hold of call.children ?? []) {
        const handle = hold.fd === null ? null : `fd ${hold.fd}`;
        const id = `${hold.pid}\0${hold.path}\0${handle ?? ''}`;
        const watchedDir = query.watchedDirOf(hold.path);
        if (watchedDir === null || found.has(id) || query.seen(hold.pid, hold.path, handle)) continue;
        const spawn = latestBefore(index.spawnsByChild.get(hold.pid) ?? [], (r) => r.pid === call.pid, call.atMs);
        const own = latestBefore(index.byPid.get(hold.pid) ?? [], isProcessStart, call.atMs) as ProcessRecord | undefined;
        // No later than its spawn call, where the parent's probe saw it: a holding is never older than its process.
        const startedAtMs = spawn?.atMs ?? own?.atMs ?? call.atMs;
        found.set(id, {
          ref: {
            pid: hold.pid,
            processStartedAtMs: startedAtMs,
            kind: hold.fd === null ? 'cwd' : 'file',
            path: hold.path,
            handle,
            firstSeenAtMs: call.atMs,
            ancestorPids: [call.pid],
          },
          ppid: call.pid,
          argv: own?.argv ?? spawn?.argv ?? [],
          call,
          watchedDir,
        });
      }
    }
  }
  return [...found.values()];
}

function latestBefore<R extends { atMs: number }>(records: readonly R[], is: (r: R) => boolean, atMs: number): R | undefined {
  let best: R | undefined;
  for (const r of records) if (is(r) && r.atMs <= atMs && (!best || r.atMs >= best.atMs)) best = r;
  return best;
}
