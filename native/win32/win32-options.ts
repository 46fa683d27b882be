// What a Win32HolderSource is made with, and what each of its scans reports to whoever watches cost.
import type { RecheckPolicy } from './name-cache.js';
import type { Deadlines, NameWorkerEntry } from './name-worker-client.js';

export interface Win32Options {
  deadlines?: Deadlines;
  /** The name worker's script (the Wine tests give one that hangs on purpose); the shipped one by default. */
  nameWorker?: NameWorkerEntry;
  /** How often a process's module list is re-read (default 2000 ms; 0 = every scan). */
  moduleRefreshMs?: number;
  /** After each scan, what it cost (the bench and the Wine tests watch this; the product passes none). */
  onScanned?: (stats: Win32ScanStats) => void;
  /**
   * How long system scans trust a name no object address proves (name-cache.ts; SYSTEM_RECHECK by
   * default). The bench gives one that trusts for ever to measure a steady state as a table with
   * addresses has it (Windows before 24H2, or with SeDebugPrivilege): Wine's has none.
   */
  systemRecheck?: RecheckPolicy;
  /** Pids of holdwatch beside this process (the elevated scan worker's host): never holders, nor their app children. */
  ownPids?: readonly number[];
}

export interface Win32ScanStats {
  /** Handles this scan sent to the worker: 0 in a steady state. */
  named: number;
  /** Names of unchanged rows asked again off the scan's path since the last scan (no object address proves them). */
  rechecked: number;
  /** Processes a system-wide scan re-examined because their File rows changed. */
  changedPids: readonly number[];
  /** Name worker starts so far: a stall restarts it. */
  workerStarts: number;
  /** Reads of the system handle table so far: one per system scan, none for a details request soon after. */
  handleTableReads: number;
}
