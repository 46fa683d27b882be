// One run holdwatch did not start: an existing process (and its descendants) followed as a run, with
// the events its probe announced in the inbox. It never kills anything; it ends when the process does.
import { readlinkSync } from 'node:fs';
import type { RunRecord } from '../../contract/runs.js';
import type { ProcessSource } from '../../core/platform.js';
import { readArgv } from '../../native/linux/proc-stat.js';
import { tryUnlink } from '../inbox/inbox-dir.js';
import type { ReportTargets } from './report-targets.js';
import { writeRunReports } from './run-reports.js';
import { RunRecording, type RunRecordingSetup } from './run-recording.js';

/** How often an attached process is checked for having exited (it is not our child: no exit event). */
const EXIT_POLL_MS = 200;

export interface AttachTarget {
  pid: number;
  /** With pid, the process identity: a reused pid is another process. */
  startedAtMs: number;
  command: string[];
  cwd: string;
}

/** The process as it runs now, or null when there is none with that pid. */
export async function findTarget(pid: number, processes: ProcessSource): Promise<AttachTarget | null> {
  const info = await processes.processInfo(pid);
  if (!info) return null;
  return { pid, startedAtMs: info.startedAtMs, command: argvOf(pid) ?? [info.commandLine], cwd: cwdOf(pid) ?? process.cwd() };
}

/** True when `pid` is `root` or one of its descendants now. */
export async function descendsFrom(pid: number, root: number, processes: ProcessSource): Promise<boolean> {
  const parents = new Map((await processes.listProcesses()).map((p) => [p.pid, p.ppid]));
  for (let current: number | undefined = pid, hops = 0; current !== undefined && current > 0 && hops < 64; hops++) {
    if (current === root) return true;
    current = parents.get(current);
  }
  return false;
}

export class AttachedRun {
  readonly recording: RunRecording;
  private readonly announceFiles: string[] = [];
  private finished = false;
  private stopWaiting: (() => void) | null = null;

  private readonly onError: (error: unknown) => void;

  constructor(
    readonly target: AttachTarget,
    setup: Omit<RunRecordingSetup, 'command' | 'cwd'>,
    private readonly processes: ProcessSource,
  ) {
    this.onError = setup.onError;
    this.recording = new RunRecording({ ...setup, command: target.command, cwd: target.cwd });
  }

  get runId(): string {
    return this.recording.runId;
  }

  start(): void {
    this.recording.supervisor.begin();
    this.recording.supervisor.attach(this.target.pid);
  }

  /** An announce file of this run: its events join the timeline; the file goes once the run is recorded. */
  addEvents(path: string): void {
    if (this.finished || this.announceFiles.includes(path)) return;
    this.announceFiles.push(path);
    this.recording.followEvents(path);
  }

  /** Resolves when the process has exited (or a pid reuse says so), or when stop() is called. */
  waitForExit(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setInterval(() => {
        void this.processes.processInfo(this.target.pid).then(
          (info) => (!info || info.startedAtMs !== this.target.startedAtMs) && done(),
          () => done(),
        );
      }, EXIT_POLL_MS);
      const done = () => {
        clearInterval(timer);
        this.stopWaiting = null;
        resolve();
      };
      this.stopWaiting = done;
    });
  }

  /** Ctrl-C / SIGTERM: stop waiting and record the run as it stands. */
  stop(): void {
    this.stopWaiting?.();
  }

  /** Records the end (the exit code of a process that is not our child is unknown), writes the reports. */
  async finish(targets: ReportTargets): Promise<RunRecord> {
    this.finished = true;
    const record = await this.recording.finish(null);
    for (const failure of writeRunReports(record, targets)) this.onError(new Error(failure));
    for (const path of this.announceFiles) tryUnlink(path);
    return record;
  }

  get journalPath(): string {
    return this.recording.journalPath;
  }

  dispose(): Promise<void> {
    this.stop();
    return this.recording.dispose();
  }
}

/** argv from /proc on Linux (exact, unlike the display command line); null elsewhere or when gone. */
function argvOf(pid: number): string[] | null {
  try {
    const argv = readArgv(pid);
    return argv.length > 0 ? argv : null;
  } catch {
    return null;
  }
}

function cwdOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}
