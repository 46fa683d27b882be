// One run as holdwatch records it, whoever started its processes (`run` spawns them,
// `attach` finds them running): the journal file, the supervisor, the probes' events files, the
// leftovers baseline, and at the end the record and its one-line summary.
import { release } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '../../contract/runs.js';
import { pathStyleOf } from '../../core/paths.js';
import type { HolderSource, ProcessSource, WatchDir } from '../../core/platform.js';
import { findLeftovers } from '../../core/run/leftovers.js';
import { leftoverProcesses, splitOutsiders } from '../../core/report/model.js';
import { RunSupervisor } from '../../core/run/supervisor.js';
import { ProbeEventsParser } from '../../core/runners/probe-events.js';
import { birthTimeTickMs, listNewEntries, snapshotTree, type TreeSnapshot } from '../../native/tree-listing.js';
import { BoundaryServer } from './boundary-server.js';
import { EventsTail } from './events-tail.js';
import { goExitStopMisses } from './runners/go-exec.js';
import { detectFailure } from '../../core/signatures/failure-line.js';
import { JournalFile } from './journal-file.js';
import { DisposableStore } from '../../core/disposable-store.js';
import { makePrivateDir } from '../private-files.js';
import { systemClock } from '../system-clock.js';
import { holdwatchVersion } from '../version.js';
import { randomHex } from '../random-hex.js';

export interface RunRecordingSetup {
  command: string[];
  cwd: string;
  dirs: readonly WatchDir[];
  holders: HolderSource;
  processes: ProcessSource;
  /** The runs folder of the data directory (runsDir()), already checked and created. */
  runsDir: string;
  /** A run id chosen by the caller (the UI announces it before the run starts). */
  runId?: string;
  onError: (error: unknown) => void;
}

/**
 * At the command's exit, how long the boundary channel's open connections are read on: a test process
 * that exited has closed its own, so this bounds only the wait for one that outlives the command.
 */
const BOUNDARY_SETTLE_MS = 500;

/**
 * The start time, for people and for sorting, and 64 random bits: another user cannot guess the name of
 * a run's files before they exist.
 */
export function newRunId(): string {
  return `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomHex(8)}`;
}

export class RunRecording {
  readonly runId: string;
  readonly supervisor: RunSupervisor;
  private readonly journal: JournalFile;
  private readonly before: TreeSnapshot[];
  private readonly tails: EventsTail[] = [];
  private probeLogDir: string | undefined;
  private boundary: BoundaryServer | null = null;
  /** The journal, the supervisor, the events tails and the boundary listener: released last-made first. */
  private readonly owned = new DisposableStore();

  constructor(private readonly setup: RunRecordingSetup) {
    this.runId = setup.runId ?? newRunId();
    this.journal = new JournalFile(join(setup.runsDir, `${this.runId}.jsonl`), (message) => setup.onError(new Error(message)));
    this.owned.defer(() => this.journal.close());
    try {
      this.before = setup.dirs.map((d) => snapshotTree(d.display));
      this.supervisor = new RunSupervisor({
        runId: this.runId,
        command: setup.command,
        cwd: setup.cwd,
        dirs: setup.dirs,
        platform: setup.holders.platform,
        versions: { holdwatch: holdwatchVersion(), node: process.version, os: `${process.platform} ${release()}` },
        holders: setup.holders,
        processes: setup.processes,
        clock: systemClock,
        journal: (entry) => this.journal.append(entry),
        detectFailure,
        onError: setup.onError,
      });
      this.owned.add(this.supervisor);
    } catch (error) {
      this.journal.close();
      throw error;
    }
  }

  get journalPath(): string {
    return this.journal.path;
  }

  /**
   * Follows a probes' events file (created when missing) into the run's timeline until finish().
   * `wakeOnChange: false` for a caller that drains it before whatever must come after its events.
   */
  followEvents(path: string, { wakeOnChange = true }: { wakeOnChange?: boolean } = {}): EventsTail {
    const parser = new ProbeEventsParser();
    const tail = new EventsTail(path, (text) => parser.pushFolded(text).forEach((e) => this.supervisor.probeTestEvent(e)), { wakeOnChange });
    this.tails.push(tail);
    this.owned.defer(() => tail.close());
    return tail;
  }

  /**
   * Listens for test ends from the runner integrations inside the command's processes (the pytest
   * plugin), and for test binaries stopped at their exit (Go's, through holdwatch's -exec program):
   * each is scanned for before its process goes on. Returns HOLDWATCH_BOUNDARY's value.
   */
  async openBoundary(): Promise<string> {
    if (this.boundary) return this.boundary.address;
    const boundary = await BoundaryServer.start(
      async (event, pid) => {
        // The integration wrote the test's own events before asking: read them first, so the timeline
        // has the test when its boundary is journaled.
        for (const tail of this.tails) tail.drain();
        if (event.type === 'exit') await this.supervisor.exitStop(event.atMs, pid);
        else if (event.held) await this.supervisor.listedBoundary(event.name, event.atMs, pid, event.held, event.scope);
        else await this.supervisor.testBoundary(event.name, event.atMs, pid, event.scope, event.waits !== false);
      },
      this.setup.onError,
      undefined,
      (pid) => this.supervisor.knowProcess(pid),
      (ended, pid, atMs) => this.supervisor.wentOn(ended.name, ended.atMs, pid, atMs, ended.scope),
    );
    this.boundary = boundary;
    this.owned.defer(() => boundary.close());
    return boundary.address;
  }

  /** Where the stack probes of a command started by holdwatch write (outside every watched dir). */
  createProbeLogDir(): string {
    this.probeLogDir = join(this.setup.runsDir, `${this.runId}.probes`);
    makePrivateDir(this.probeLogDir, { holdwatchs: true });
    return this.probeLogDir;
  }

  /** The run is over: last events, last scan, leftovers, stacks, then the end entry. */
  async finish(exitCode: number | null): Promise<RunRecord> {
    await this.boundary?.settle(BOUNDARY_SETTLE_MS);
    this.boundary?.close();
    for (const tail of this.tails) tail.close();
    const { dirs } = this.setup;
    const logDir = this.probeLogDir;
    if (logDir)
      for (const line of goExitStopMisses(logDir))
        this.setup.onError(new Error(`a Go test binary ran without the stop at its exit; what it held at its end rests on scans alone: ${line}`));
    const record = await this.supervisor.finish(
      exitCode,
      async (placeAt) =>
        dirs.flatMap((d, i) => {
          const fresh = listNewEntries(this.before[i]!);
          // The tick is asked of libc through koffi, whose load costs a short run more than its whole
          // record: only when something new is there to place.
          const tickMs = fresh.length > 0 ? birthTimeTickMs() : 0;
          return findLeftovers(fresh, placeAt, pathStyleOf(d), tickMs);
        }),
      // Loaded at the end: reading the probes' logs validates them with zod, which the run's start need not pay for.
      logDir ? async (holders) => (await import('./run-stacks.js')).matchRunStacks(logDir, holders, dirs) : undefined,
    );
    return record;
  }

  /** Idempotent; the sources belong to the caller. */
  dispose(): Promise<void> {
    return this.owned.dispose();
  }
}

/** The one line the front end prints after a run: what was found, and where the journal is. */
export function runSummaryLine(record: RunRecord, journalPath: string): string {
  const count = (v: string) => record.holders.filter((h) => h.attribution.verdict === v).length;
  const processes = leftoverProcesses(record).length;
  const { own, outsiders } = splitOutsiders(record, record.holders);
  const parts = [
    `${own.length} holder(s)`,
    // Other programs' files under a shared temp dir: counted, never mistaken for the run's.
    ...(outsiders.length > 0 ? [`${outsiders.length} held by processes outside the run`] : []),
    `${count('leaked-past-test')} leaked past their test`,
    `${count('blocked-cleanup')} blocked cleanup`,
    ...(processes > 0 ? [`${processes} leftover process${processes === 1 ? '' : 'es'} still holding after the command exited`] : []),
    // Only when there are: a line every user reads, for a class most runs never have.
    ...(count('closed-by-gc') > 0 ? [`${count('closed-by-gc')} closed by the garbage collector, not the code`] : []),
    `${record.failures.length} teardown failure(s)`,
    `${record.leftovers.length} leftover file(s)`,
  ];
  return `holdwatch: run ${record.runId}: ${parts.join(', ')}; journal ${journalPath}\n`;
}
