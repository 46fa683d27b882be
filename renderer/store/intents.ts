// What the user asks for: each intent calls the service and records the outcome in the store,
// an error as a readable sentence with the next step.
import type { Holder } from '../../contract/holders.js';
import type { ActiveRun } from '../../contract/runs.js';
import type { DirToOpen, HoldwatchService, ReportFormat } from '../../contract/service.js';
import { holderKey } from '../../contract/identity.js';
import { parseCommandLine } from '../command-line.js';
import { service } from '../service/current.js';
import { useStore } from './store.js';
import { resolvePath } from '../resolve-path.js';
import { initialState, type LiveStackState, type SortColumn, type StartDraft } from './slices.js';

const set = useStore.setState;
const get = useStore.getState;

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function loadStartFacts(): Promise<void> {
  // A host that cannot say where it was started leaves the form to say "the directory holdwatch was started in".
  const launching = service()
    .launchDir()
    .catch(() => '');
  const [defaultDir, recentDirs, launchDir] = await Promise.all([service().defaultDir(), service().listRecentDirs(), launching]);
  set((s) => ({ settings: { ...s.settings, defaultDir, recentDirs, launchDir } }));
}

export function setStartDraft(change: Partial<StartDraft>): void {
  set((s) => ({ settings: { ...s.settings, startDraft: { ...s.settings.startDraft, ...change } } }));
}

/**
 * The start form's "Watch and run": the watch, then the run. A run that cannot start leaves with its
 * watch: the start form comes back with everything typed in it, and the reason under it.
 */
export async function startWatchAndRun(dir: string, commandLine: string, cwd: string): Promise<void> {
  await startWatch(dir);
  if (get().watch.phase === 'error') return;
  await startRun(commandLine, cwd, dir);
  if (get().run.phase !== 'error') return;
  await stopWatch();
  set((s) => ({ watch: { ...s.watch, phase: 'idle', rows: new Map() } }));
}

export async function startWatch(dir: string): Promise<void> {
  // Relative to where holdwatch was started, as the form shows it: never to wherever the host stands now.
  const trimmed = resolvePath(get().settings.launchDir, dir);
  if (!trimmed) {
    set((s) => ({ watch: { ...s.watch, phase: 'error', error: 'Type or paste a directory to watch, or pick a recent one.' } }));
    return;
  }
  await stopWatch();
  set((s) => ({
    watch: { ...s.watch, watchId: null, dirs: [trimmed], phase: 'starting', error: null, scans: 0, denied: 0, scanner: null, retrying: null, rows: new Map() },
    selection: { selectedKey: null, frozenFailure: null, details: null, liveStack: null, stacks: null },
  }));
  try {
    const { watchId } = await service().startWatch({ dirs: [trimmed], intervalMs: get().settings.intervalMs });
    set((s) => ({ watch: { ...s.watch, watchId, phase: s.watch.phase === 'starting' ? 'first-scan' : s.watch.phase } }));
    void loadStartFacts().catch(() => undefined);
  } catch (error) {
    set((s) => ({
      watch: { ...s.watch, phase: 'error', error: `Could not watch ${trimmed}: ${messageOf(error)}. Check the path, or pick another directory.` },
    }));
  }
}

/**
 * The directory the app was started on, then each one a second start of the app names: watched at once,
 * or, when it cannot be, the start screen says why in one line. Returns the unsubscribe function.
 */
export function followDirsToOpen(from: HoldwatchService): () => void {
  const off = from.onOpenDirRequest((request) => void openDir(request));
  from
    .dirToOpen()
    .then((request) => (request ? openDir(request) : undefined))
    .catch(() => undefined); // a host without one: the start screen, as always
  return off;
}

async function openDir(request: DirToOpen): Promise<void> {
  if ('dir' in request) return startWatch(request.dir);
  await stopWatch();
  // An error with no rows is the start screen (App): the sentence shows under the directory field.
  set((s) => ({ watch: { ...s.watch, watchId: null, phase: 'error', error: request.problem, rows: new Map() } }));
}

export async function stopWatch(): Promise<void> {
  const { watchId } = get().watch;
  if (!watchId) return;
  set((s) => ({ watch: { ...s.watch, watchId: null, phase: 'idle' } }));
  await service()
    .stopWatch(watchId)
    .catch(() => undefined); // already stopped is stopped
}

/** "Scan as administrator": the host restarts only this watch's scanner, elevated; the status line shows progress and the outcome. */
export async function elevateScanner(): Promise<void> {
  const { watchId, scanner } = get().watch;
  if (!watchId || !scanner) return;
  const update = (change: Partial<typeof scanner>) =>
    set((s) => (s.watch.watchId === watchId && s.watch.scanner ? { watch: { ...s.watch, scanner: { ...s.watch.scanner, ...change } } } : {}));
  update({ mode: 'starting', message: null });
  try {
    update(await service().elevateScanner(watchId));
  } catch (error) {
    update({ mode: 'in-process', message: `The elevated scanner could not start: ${messageOf(error)}. Try again, or start holdwatch as administrator.` });
  }
}

/** Why the command line cannot be run as typed, or null: checked before anything starts. */
export function commandLineProblem(commandLine: string): string | null {
  try {
    if (parseCommandLine(commandLine).command.length === 0) return 'type the test command to run, e.g. `pytest -x tests`';
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

export async function startRun(commandLine: string, cwd: string, dir: string): Promise<void> {
  const problem = commandLineProblem(commandLine);
  if (problem) {
    set((s) => ({ run: { ...s.run, phase: 'error', error: problem, commandLine, cwd } }));
    return;
  }
  const { command, env } = parseCommandLine(commandLine);
  const dirs = [resolvePath(get().settings.launchDir, dir) || get().watch.dirs[0] || get().settings.defaultDir];
  set((s) => ({
    run: {
      ...s.run,
      runId: null,
      phase: 'starting',
      command,
      commandLine,
      cwd,
      record: null,
      failures: [],
      lastTest: null,
      output: '',
      exitCode: null,
      error: null,
      attachedPid: null,
      headline: null,
    },
    selection: { ...s.selection, frozenFailure: null },
  }));
  try {
    // Empty: the host runs it where holdwatch was started, never in the watched dir (the runner would hold it).
    const runCwd = resolvePath(get().settings.launchDir, cwd);
    const { runId } = await service().startRun({ command, cwd: runCwd, dirs, ...(Object.keys(env).length > 0 ? { env } : {}) });
    // Events may have arrived for this run before its id did: they were dropped, the next record repairs it.
    set((s) => ({ run: { ...s.run, runId, phase: s.run.phase === 'starting' ? 'running' : s.run.phase } }));
  } catch (error) {
    set((s) => ({
      run: { ...s.run, phase: 'error', error: `Could not start ${command[0]}: ${messageOf(error)}. Check the command and its working directory.` },
    }));
  }
}

/** The terminal runs one can attach to; a failed refresh keeps the last list and says why. */
export async function refreshActiveRuns(): Promise<void> {
  try {
    const runs = await service().listActiveRuns();
    set({ attach: { runs, loaded: true, error: null } });
  } catch (error) {
    set((s) => ({ attach: { ...s.attach, loaded: true, error: `Could not list the running \`holdwatch run\`s: ${messageOf(error)}` } }));
  }
}

/**
 * Follows the run: the run view, as for a run started here. No watch of our own: the run's holdwatch
 * already scans its dirs (the whole system each second) and sends every holder, outside-run ones too.
 */
export async function attachRun(active: ActiveRun): Promise<void> {
  await stopWatch();
  // The id is set before asking: the history the host replays during the call is applied, not dropped.
  const { watch, run, selection } = initialState();
  set({
    watch: { ...watch, dirs: active.watched, phase: 'following' },
    run: { ...run, runId: active.runId, phase: 'starting', command: active.command, cwd: active.cwd, attachedPid: active.pid },
    selection,
  });
  try {
    await service().attachRun(active.runId);
    set((s) => ({ run: { ...s.run, phase: s.run.phase === 'starting' ? 'running' : s.run.phase } }));
  } catch (error) {
    set((s) => ({
      run: {
        ...s.run,
        phase: 'error',
        error: `Could not attach to ${active.command.join(' ')}: ${messageOf(error)}. Go back to the start screen for the runs going now.`,
      },
    }));
    void refreshActiveRuns();
  }
}

/** Stops a run started here (SIGTERM to its command); for an attached run, stops following it only. */
export async function stopRun(): Promise<void> {
  const { runId } = get().run;
  if (runId)
    await service()
      .stopRun(runId)
      .catch(() => undefined);
}

export async function selectRow(key: string | null): Promise<void> {
  const row = key ? (get().watch.rows.get(key)?.holder ?? frozenHolder(key)) : null;
  set((s) => ({
    selection: {
      ...s.selection,
      selectedKey: key,
      details: row ? { pid: row.pid, state: 'loading', data: null, error: null } : null,
      liveStack: s.selection.liveStack?.key === key ? s.selection.liveStack : null,
      stacks: s.selection.stacks?.key === key ? s.selection.stacks : null,
    },
  }));
  if (!row) return;
  if (key) void loadRunStacks(key);
  try {
    const data = await service().getProcessDetails(row.pid);
    if (get().selection.selectedKey !== key) return; // the user moved on
    set((s) => ({ selection: { ...s.selection, details: { pid: row.pid, state: data ? 'ready' : 'gone', data, error: null } } }));
  } catch (error) {
    set((s) => ({ selection: { ...s.selection, details: { pid: row.pid, state: 'error', data: null, error: messageOf(error) } } }));
  }
}

/**
 * While a run goes (started here or followed from a terminal), the selected holder's stacks are
 * matched on asking (the record has them only at the end); an answer for a holder no longer
 * selected is dropped.
 */
async function loadRunStacks(key: string): Promise<void> {
  const { runId, phase } = get().run;
  if (!runId || phase !== 'running') return;
  try {
    const stacks = await service().getHolderStacks({ runId, key });
    if (stacks && get().selection.selectedKey === key) set((s) => ({ selection: { ...s.selection, stacks: { key, ...stacks } } }));
  } catch {
    // The stacks stay those of the record: they arrive with the run's end.
  }
}

/** A holder of the frozen snapshot (it may be gone from the live table). */
function frozenHolder(key: string): Holder | null {
  const { record, failures } = get().run;
  const all = [...(record?.holders ?? []), ...failures.flatMap((f) => f.holders)];
  return all.find((h) => holderKey(h) === key) ?? null;
}

let liveStackRequests = 0;

/** The live stack of the selected holder's process, by its identity; an answer after the user moved on is dropped. */
export async function captureLiveStack(): Promise<void> {
  const key = get().selection.selectedKey;
  const holder = key ? (get().watch.rows.get(key)?.holder ?? frozenHolder(key)) : null;
  if (!key || !holder) return;
  const requestId = ++liveStackRequests;
  const { pid } = holder;
  const settle = (answer: { result: LiveStackState['result']; error: string | null }) =>
    set((s) =>
      s.selection.liveStack?.requestId === requestId && s.selection.selectedKey === key
        ? { selection: { ...s.selection, liveStack: { ...s.selection.liveStack, ...answer, state: answer.error ? 'error' : 'ready', atMs: Date.now() } } }
        : {},
    );
  set((s) => ({ selection: { ...s.selection, liveStack: { requestId, key, pid, state: 'running', result: null, error: null, atMs: null } } }));
  try {
    settle({ result: await service().captureLiveStack({ pid, startedAtMs: holder.processStartedAtMs }), error: null });
  } catch (error) {
    settle({
      result: null,
      error: `Could not take the live stack of PID ${pid}: ${messageOf(error)}. If the process is still there, try again, or run \`holdwatch stack ${pid}\` in a terminal.`,
    });
  }
}

export function freezeFailure(index: number | null): void {
  set((s) => ({ selection: { ...s.selection, frozenFailure: index } }));
}

export function sortBy(column: SortColumn): void {
  set((s) => ({ settings: { ...s.settings, sort: { column, descending: s.settings.sort.column === column ? !s.settings.sort.descending : false } } }));
}

export function setFilter(filter: string): void {
  set((s) => ({ settings: { ...s.settings, filter } }));
}

export function setGroupByProcess(groupByProcess: boolean): void {
  set((s) => ({ settings: { ...s.settings, groupByProcess } }));
}

/** Opens a folded process group, or folds an open one. */
export function toggleGroup(key: string): void {
  set((s) => {
    const toggledGroups = new Set(s.settings.toggledGroups);
    if (!toggledGroups.delete(key)) toggledGroups.add(key);
    return { settings: { ...s.settings, toggledGroups } };
  });
}

export function setRedact(redact: boolean): void {
  set((s) => ({ settings: { ...s.settings, redact } }));
}

/** Throws a readable error; the caller shows it. */
export async function revealPath(path: string): Promise<void> {
  await service().revealPath(path);
}

/** Throws a readable error; the caller shows it. */
export async function endProcess(pid: number, startedAtMs: number): Promise<void> {
  await service().endProcess({ pid, startedAtMs });
}

/** Closes one handle as the user saw it (its process, value and path); throws the host's reason when refused. */
export async function closeHandle(pid: number, startedAtMs: number, handle: string, path: string): Promise<void> {
  await service().closeHandle({ pid, startedAtMs, handle, path });
}

export async function exportReport(format: ReportFormat) {
  const { runId } = get().run;
  if (!runId) throw new Error('Run a test command first: reports describe a run.');
  return service().exportReport({ runId, format, redact: get().settings.redact });
}
