// Resources the code never closed: the probe saw the runtime's finalizer close them (a refcount drop,
// a collected cycle), and wrote a gc-close record with the open's stack and test. On CPython the file
// is closed at once, so no teardown fails here; where finalisation is deferred it stays open.
// Pure: the probe index and the watched dirs in, the closes out.
import type { OpenStack } from '../../contract/stacks.js';
import type { GcCloseRecord, ProbeRuntime, ProcessRecord } from '../../contract/probe-log.js';
import type { ProbeIndex } from './match.js';
import { isProcessStart } from './process-threads.js';

export interface GcClose {
  /** The probed process that opened it (the life the record belongs to). */
  process: ProcessRecord;
  record: GcCloseRecord;
  /** The open as a stack lookup gives it. */
  stack: OpenStack;
  /** The watched dir (display form) it lies under. */
  watchedDir: string;
}

export function findGcCloses(index: ProbeIndex, watchedDirOf: (path: string) => string | null): GcClose[] {
  const closes: GcClose[] = [];
  for (const records of index.byPid.values()) {
    let process: ProcessRecord | undefined;
    for (const record of records) {
      if (isProcessStart(record)) process = record;
      if (record.kind !== 'gc-close' || !process) continue;
      const watchedDir = watchedDirOf(record.path);
      if (watchedDir === null) continue;
      closes.push({ process, record, stack: stackOfGcClose(record, process.runtime), watchedDir });
    }
  }
  return closes.sort((a, b) => a.record.openedAtMs - b.record.openedAtMs);
}

function stackOfGcClose(record: GcCloseRecord, runtime: ProbeRuntime): OpenStack {
  return {
    kind: record.resource === 'sqlite' ? 'connect' : 'open',
    runtime,
    pid: record.pid,
    atMs: record.openedAtMs,
    ...(record.test !== undefined ? { test: record.test } : {}),
    // Closed by its finalizer after its test had ended (or between tests): open past that test.
    ...(record.test !== undefined ? { heldPastTest: record.closedDuring !== record.test } : {}),
    api: record.api,
    path: record.path,
    fd: record.fd,
    argv: null,
    childPid: null,
    frames: record.frames,
  };
}
