// The store's typed slices. No actions live here: events and user intents update the store from
// outside with useStore.setState (zustand's "no store actions" practice), so tests drive it the same way.
import type { ProcessDetails } from '../../contract/details.js';
import type { CapturedLiveStack } from '../../contract/live-stack.js';
import type { ActiveRun, FailureRecord, Inline, RunRecord, TestEvent } from '../../contract/runs.js';
import type { ScannerStatus } from '../../contract/service.js';
import type { StackLookup } from '../../contract/stacks.js';
import type { HolderColumnId } from '../holder-columns.js';
import type { Row } from './rows.js';

export interface WatchSlice {
  watchId: string | null;
  dirs: string[];
  /** `following`: no watch of its own; the rows come from an attached terminal run, whose holdwatch scans. */
  phase: 'idle' | 'starting' | 'first-scan' | 'live' | 'error' | 'following';
  /** A readable sentence with the next step; shown instead of a blank panel. */
  error: string | null;
  scans: number;
  denied: number;
  /** Of `denied`, those Windows protects: elevation will not show them. */
  protectedDenied: number;
  /** Where the watch's scans run and whether "Scan as administrator" is offered; null until the host says. */
  scanner: ScannerStatus | null;
  /** While scans fail for a passing lack of resources (EMFILE): the host's sentence; the watch goes on. */
  retrying: string | null;
  rows: Map<string, Row>;
}

export interface RunSlice {
  runId: string | null;
  phase: 'idle' | 'starting' | 'running' | 'ended' | 'error';
  command: string[];
  /** The command as typed, kept so a run that failed to start can be corrected, not retyped. */
  commandLine: string;
  cwd: string;
  /** The whole record so far (sent throttled by the host), final once ended. */
  record: RunRecord | null;
  /** Failures as they happen (before the next record arrives). */
  failures: FailureRecord[];
  /** The test events seen live, for the progress line. */
  lastTest: TestEvent | null;
  /** The tail of the command's output. */
  output: string;
  exitCode: number | null;
  error: string | null;
  /** The `holdwatch run` followed when the run was attached from a terminal; null for a run started here. */
  attachedPid: number | null;
  /** The answer, as the report's first line says it; null until the run ended. */
  headline: Inline[] | null;
}

/** Runs `holdwatch run` started in terminals, still going: the start screen offers to attach to them. */
export interface AttachSlice {
  runs: ActiveRun[];
  /** False until the first answer: the list is not "empty" before it is known. */
  loaded: boolean;
  error: string | null;
}

export interface SelectionSlice {
  selectedKey: string | null;
  /** Index into the run's failures: the table shows the snapshot taken at that failure. */
  frozenFailure: number | null;
  details: { pid: number; state: 'loading' | 'ready' | 'gone' | 'error'; data: ProcessDetails | null; error: string | null } | null;
  /** The live stack asked for the selected holder's process (one at a time; seconds with gdb). */
  liveStack: LiveStackState | null;
  /** The selected holder's open and spawn stacks, matched while its run goes (the record has them only at its end). */
  stacks: { key: string; open: StackLookup; spawn: StackLookup } | null;
}

export interface LiveStackState {
  /** Which request this is: an answer to an older one, or for a holder no longer selected, is dropped. */
  requestId: number;
  key: string;
  pid: number;
  state: 'running' | 'ready' | 'error';
  result: CapturedLiveStack | null;
  /** A readable sentence with the next step. */
  error: string | null;
  /** When the answer came, for "taken at". */
  atMs: number | null;
}

export type SortColumn = HolderColumnId;

export interface StartDraft {
  dir: string;
  command: string;
  cwd: string;
}

export interface SettingsSlice {
  connection: 'connecting' | 'open' | 'closed';
  connectionError: string | null;
  defaultDir: string;
  /** Where holdwatch was started: a run's working directory when none is typed, and what a relative path is under. */
  launchDir: string;
  recentDirs: string[];
  /** What the start form holds: kept in the store, so no error (the form unmounted and back) clears it. */
  startDraft: StartDraft;
  sort: { column: SortColumn; descending: boolean };
  filter: string;
  /** The table's rows under one header per process (renderer/store/derive.ts groupByProcess). */
  groupByProcess: boolean;
  /** Process groups the user opened or folded against their default. */
  toggledGroups: ReadonlySet<string>;
  redact: boolean;
  intervalMs: number;
}

export interface HoldwatchState {
  watch: WatchSlice;
  run: RunSlice;
  attach: AttachSlice;
  selection: SelectionSlice;
  settings: SettingsSlice;
}

export const OUTPUT_KEEP_CHARS = 64 * 1024;

export function initialState(): HoldwatchState {
  return {
    watch: { watchId: null, dirs: [], phase: 'idle', error: null, scans: 0, denied: 0, protectedDenied: 0, scanner: null, retrying: null, rows: new Map() },
    run: {
      runId: null,
      phase: 'idle',
      command: [],
      commandLine: '',
      cwd: '',
      record: null,
      failures: [],
      lastTest: null,
      output: '',
      exitCode: null,
      error: null,
      attachedPid: null,
      headline: null,
    },
    attach: { runs: [], loaded: false, error: null },
    selection: { selectedKey: null, frozenFailure: null, details: null, liveStack: null, stacks: null },
    settings: {
      connection: 'connecting',
      connectionError: null,
      defaultDir: '',
      launchDir: '',
      recentDirs: [],
      startDraft: { dir: '', command: '', cwd: '' },
      sort: { column: 'since', descending: false },
      filter: '',
      groupByProcess: false,
      toggledGroups: new Set(),
      redact: false,
      intervalMs: 500,
    },
  };
}
