// A Node process's worker threads each load the probe and write a log of their own under the process's
// pid: their records read beside the process's, not as another process's.
import type { ExitRecord, ProbeRecord, ProcessRecord } from '../../contract/probe-log.js';
import { threadOfId } from '../../contract/probe-log.js';

/** The exit that speaks for the open `id`: its own thread's (a worker thread's exit is not the process's). */
export function exitOf(exits: readonly ExitRecord[], id: number): ExitRecord | undefined {
  const thread = threadOfId(id);
  return exits.find((e) => (e.thread ?? 0) === thread);
}

/** A process's start, not a worker thread's (which writes a process record of its own under the same pid). */
export function isProcessStart(record: ProbeRecord): record is ProcessRecord {
  return record.kind === 'process' && record.thread === undefined;
}
