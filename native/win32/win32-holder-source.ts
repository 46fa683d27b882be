// HolderSource for Windows: the system handle table (ntdll), names from the killable worker,
// modules and PEB facts read here. Raw handles never leave this folder.
// A steady-state poll is the handle-table call plus a word-for-word comparison of each process's File
// rows with the last poll's: process identities are held (process-identities.ts), names cached per
// handle (name-cache.ts) and re-checked off the poll's path (background-rechecks.ts), match keys per
// name (path-keys.ts), module matches per module list; only what changed costs more.
import type { DeniedProcess, ProcessInfo, UnnamedHandles } from '../../contract/holders.js';
import type { HolderSource, ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import { trimTrailingSeparators, WINDOWS_STYLE } from '../../core/paths.js';
import { BackgroundRechecks } from './background-rechecks.js';
import { SpelledDirs, underWatchedDir, type SpelledDir } from './dir-aliases.js';
import { allTakenWhole, entryAt, fileBlocksByPid, fileRowIndices, handleCountIn, sameFileRows, splitPids, type TableSnapshot } from './file-rows.js';
import type { HandleEntry } from './handle-table.js';
import { tryEnableDebugPrivilege, type PrivilegeState } from './debug-privilege.js';
import { focusedFileHandles } from './focused-handles.js';
import { HolderBuilder, type RawHolding } from './holder-building.js';
import { ModuleHoldings } from './module-holdings.js';
import { nameEntries } from './entry-names.js';
import { closeHandle, openProcess } from './kernel32.js';
import { FOCUS_RECHECK, NameCache, SYSTEM_RECHECK, type RecheckPolicy } from './name-cache.js';
import { DEFAULT_DEADLINES, NameWorkerClient, type NameOutcome } from './name-worker-client.js';
import { DosDevices, PathKeys } from './path-keys.js';
import { ProcessIdentities, windowsIdentityOs, type ProcessIdentity } from './process-identities.js';
import { ProcessReader } from './process-reader.js';
import { sameNumbers } from './same-numbers.js';
import { protectedReason, protectionOf } from './protection.js';
import { SystemTables } from './system-tables.js';
import { describeProcess } from './win32-process-source.js';
import { resolveWin32WatchDir } from './watch-dir.js';
import type { Win32Options, Win32ScanStats } from './win32-options.js';

export type { Win32Options, Win32ScanStats };

/** One process's part of a scan; reused as is while its File rows do not change. */
interface PidScan {
  /** The identity it was computed for: a different one (pid reused after a drop) means recompute. */
  identity: ProcessIdentity | undefined;
  holdings: RawHolding[];
  unnamed: UnnamedHandles | null;
  denied: string | null;
  handleCount: number;
  /** Recompute from this time on even if the rows are unchanged (names a deadline never reached, retries). */
  redoAtMs: number;
}

const NONE: readonly number[] = [];

/** Identities are re-synced at least this often even when the pid list is unchanged (denied pids are retried). */
const IDENTITY_RESYNC_MS = 5000;

/** A details request counts handles in the table of a system scan that ended this recently (a watch polls every 500 ms). */
const TABLE_REUSE_MS = 30_000;

export class Win32HolderSource implements HolderSource {
  readonly platform = 'win32' as const;
  private readonly tables = new SystemTables();
  private readonly identities = new ProcessIdentities(windowsIdentityOs(() => this.tables.processList()));
  private readonly cache = new NameCache();
  private readonly reader = new ProcessReader();
  private readonly keys = new PathKeys(new DosDevices());
  private readonly keyOf = (name: string) => this.keys.keyOf(name);
  private readonly spelled = new SpelledDirs();
  private readonly worker: NameWorkerClient;
  /** The worker answers one batch at a time: a scan's naming and the background re-checks' chunks queue here. */
  private workerQueue: Promise<unknown> = Promise.resolve();
  private readonly rechecks: BackgroundRechecks;
  private readonly systemRecheck: RecheckPolicy;
  private readonly modules: ModuleHoldings;
  private readonly holders: HolderBuilder;
  private identitiesVersion = -1;
  private nextIdentitySyncMs = -Infinity;
  private lastPids: number[] = [];
  /** The last system-wide scan: its table (compared process by process), blocks and per-process results. */
  private lastSnapshot: TableSnapshot | undefined;
  private lastSnapshotAtMs = -Infinity;
  private lastScans = new Map<number, PidScan>();
  /** The earliest redoAtMs of lastScans, and the identities' version they were computed with. */
  private lastScansRedoAtMs = -Infinity;
  private lastScansIdentities = -1;
  private lastDirsKey = '';
  private lastKeysVersion = -1;
  /** System-wide scans so far: the first walks every process's mapped views, later ones new processes a period late. */
  private systemScans = 0;
  /** The last focus scan's pids (a run's tree): named by FOCUS_RECHECK in every scan, never re-checked in
   * the background (a disk name asked again duplicates the test's handle, and its teardown's `close();
   * remove()` in that moment would fail because of holdwatch). */
  private focusPids: ReadonlySet<number> = new Set();
  private readonly policyOf = (pid: number): RecheckPolicy => (this.focusPids.has(pid) ? FOCUS_RECHECK : this.systemRecheck);

  private readonly onScanned: Win32Options['onScanned'];
  /** This scan's cost so far, for onScanned. */
  private scanNamed = 0;
  private scanChanged: readonly number[] = NONE;

  /** SeDebugPrivilege, on where the token holds it (elevated): null when asking the token failed. */
  readonly debugPrivilege: PrivilegeState | null;

  constructor(options: Win32Options = {}) {
    this.debugPrivilege = tryEnableDebugPrivilege();
    this.holders = new HolderBuilder(this.identities, this.reader, () => [process.pid, this.worker.workerPid ?? 0, ...(options.ownPids ?? [])]);
    this.modules = new ModuleHoldings(this.identities, this.reader, this.keys, options.moduleRefreshMs ?? 2000);
    this.onScanned = options.onScanned;
    this.worker = new NameWorkerClient(options.deadlines ?? DEFAULT_DEADLINES, options.nameWorker);
    this.systemRecheck = options.systemRecheck ?? SYSTEM_RECHECK;
    this.rechecks = new BackgroundRechecks(this.cache, this.systemRecheck, (entries) => this.askWorker(entries));
  }

  async resolveWatchDir(input: string): Promise<WatchDir> {
    return resolveWin32WatchDir(input);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const nowMs = performance.now();
    this.scanNamed = 0;
    this.scanChanged = NONE;
    this.keys.begin();
    const dirs = this.spelled.of(request.dirs, this.keys.tableVersion, this.keyOf);
    const wanted = request.pids ? new Set(request.pids) : null;
    const scans = wanted ? await this.scanRestricted(wanted, dirs, nowMs) : await this.scanSystem(dirs, nowMs);
    const denied = new Map<number, DeniedProcess>();
    const unnamed: UnnamedHandles[] = [];
    const holdings: RawHolding[] = [];
    let handleCount = 0;
    for (const [pid, scan] of scans) {
      handleCount += scan.handleCount;
      if (scan.denied) denied.set(pid, this.deniedProcess(pid, scan.denied));
      if (scan.unnamed) unnamed.push(scan.unnamed);
      for (const holding of scan.holdings) holdings.push(holding);
    }
    const deny = (pid: number, reason: string) => denied.set(pid, this.deniedProcess(pid, reason));
    this.modules.collect({ wanted, firstSystemScan: this.systemScans === 0, nowMs }, dirs, this.spelled.key, holdings, deny);
    if (!wanted) this.systemScans++;
    if (!wanted) this.lastSnapshotAtMs = performance.now(); // after the module walk, which can take seconds
    const holders = this.holders.build(holdings, deny);
    this.onScanned?.({
      named: this.scanNamed,
      rechecked: this.rechecks.takeAsked(),
      changedPids: this.scanChanged,
      workerStarts: this.worker.starts,
      handleTableReads: this.tables.handleTableReads,
    });
    return { holders, denied: [...denied.values()], unnamed, processCount: wanted ? wanted.size : this.identities.size, handleCount };
  }

  /** A process we may not inspect, and, when Windows protects it, why elevation will not help. */
  private deniedProcess(pid: number, reason: string): DeniedProcess {
    const identity = this.identities.get(pid);
    const name = identity?.imageName || '?';
    const protection = protectionOf(identity?.protection ?? null, pid, identity?.imageName ?? '');
    return protection === null ? { pid, name, reason } : { pid, name, reason: protectedReason(protection), protected: true };
  }

  /**
   * The whole system. A process whose File rows are those of the last scan (same handle values,
   * access and object: file-rows.ts) keeps last scan's result without a single lookup; only the
   * processes whose rows changed go through the name cache and, for new handles, the worker. Names no
   * address proves are re-checked after the scan, in the background, as they come due.
   */
  private async scanSystem(dirs: readonly SpelledDir[], nowMs: number): Promise<Map<number, PidScan>> {
    const snapshot = this.tables.snapshot();
    // The name worker's File handles are duplicates it holds for a moment while it names them, and it
    // names between scans too (the re-checks): never a holder, new at every read. Its rows are left out.
    const worker = this.worker.workerPid;
    const blocks = snapshot.blocks.filter((block) => block.fileRows > 0 && block.pid !== worker);
    const pids = blocks.map((block) => block.pid);
    if (nowMs >= this.nextIdentitySyncMs || !sameNumbers(pids, this.lastPids)) {
      this.syncIdentities(pids, true);
      this.lastPids = pids;
      this.nextIdentitySyncMs = this.identities.startingSeen ? -Infinity : nowMs + IDENTITY_RESYNC_MS;
    }
    // holdwatch's own processes are never holders: their handles (new at each journal write) are not named.
    const own = this.holders.ownPids();
    const dirsKey = this.spelled.key;
    // Other dirs, or another drive table (the keys of every name change): every result is stale.
    if (dirsKey !== this.lastDirsKey || this.keys.tableVersion !== this.lastKeysVersion) {
      this.lastScans.clear();
      this.lastDirsKey = dirsKey;
      this.lastKeysVersion = this.keys.tableVersion;
    }
    const renamed = this.rechecks.takeChanged();
    // The last results hold for every process as they are: the same processes and identities, each one's
    // rows byte for byte the last read's, no name changed by a re-check since, none due to be redone.
    const lastRead = this.lastSnapshot;
    const lastHolds = lastRead !== undefined && snapshot.comparedWith === lastRead.read && renamed.size === 0 && nowMs < this.lastScansRedoAtMs;
    if (lastHolds && this.identities.version === this.lastScansIdentities && allTakenWhole(blocks, own, this.lastScans.size)) {
      // Nothing to follow: no allocation beyond the pass.
      this.rechecks.start(nowMs);
      this.lastSnapshot = snapshot;
      return this.lastScans;
    }
    const lastBlocks = fileBlocksByPid(lastRead);
    const split = splitPids(blocks);
    const scans = new Map<number, PidScan>();
    const changed: HandleEntry[] = [];
    for (const block of blocks) {
      const { pid } = block;
      if (own.has(pid)) continue;
      const last = this.lastScans.get(pid);
      const lastBlock = lastBlocks.get(pid);
      if (
        last &&
        lastBlock &&
        this.lastSnapshot &&
        !split.has(pid) &&
        last.identity === this.identities.get(pid) &&
        nowMs < last.redoAtMs &&
        !renamed.has(pid) &&
        ((block.sameAsCompared === true && snapshot.comparedWith === this.lastSnapshot.read) || sameFileRows(snapshot, block, this.lastSnapshot, lastBlock))
      ) {
        scans.set(pid, last);
        continue;
      }
      for (const row of fileRowIndices(snapshot, block)) changed.push(entryAt(snapshot, row));
    }
    // Nothing changed is the common case: no await, no allocation beyond the pass itself.
    const fresh = changed.length === 0 ? new Map<number, PidScan>() : await this.scanEntries(changed, dirs, nowMs, this.policyOf);
    this.scanChanged = [...fresh.keys()];
    for (const [pid, scan] of fresh) {
      // A pid listed in two runs was read mid-change: its result is not kept for the next scan.
      if (split.has(pid)) scan.redoAtMs = 0;
      scans.set(pid, scan);
    }
    this.cache.endScan(fresh.keys());
    this.rechecks.start(nowMs);
    this.lastScans = scans;
    this.lastScansRedoAtMs = Math.min(...[...scans.values()].map((scan) => scan.redoAtMs));
    this.lastScansIdentities = this.identities.version;
    this.lastSnapshot = snapshot;
    return scans;
  }

  /** Only `wanted` (the test run's tree): per-process handle tables where the OS has them. */
  private async scanRestricted(wanted: Set<number>, dirs: readonly SpelledDir[], nowMs: number): Promise<Map<number, PidScan>> {
    this.focusPids = wanted;
    for (const pid of wanted) this.rechecks.forget(pid);
    const refused = new Map<number, string>();
    const entries = this.restrictedHandles(wanted, (pid, reason) => refused.set(pid, reason));
    const seen = new Set(entries.map((e) => e.pid));
    // A wanted pid with no handles at all has exited (every live process holds some File handle).
    this.syncIdentities(
      seen,
      false,
      [...wanted].filter((pid) => !seen.has(pid) && !refused.has(pid)),
    );
    const scans = await this.scanEntries(entries, dirs, nowMs, () => FOCUS_RECHECK);
    for (const [pid, reason] of refused) scans.set(pid, { identity: undefined, holdings: [], unnamed: null, denied: reason, handleCount: 0, redoAtMs: 0 });
    this.cache.endScan(wanted);
    return scans;
  }

  /** Names `entries` (cache first, then the worker) and turns them into per-process results. */
  private async scanEntries(
    entries: readonly HandleEntry[],
    dirs: readonly SpelledDir[],
    nowMs: number,
    policyOf: (pid: number) => RecheckPolicy,
  ): Promise<Map<number, PidScan>> {
    const { named, asked } = await nameEntries(entries, nowMs, policyOf, {
      cache: this.cache,
      identityOf: (pid) => this.identities.get(pid),
      ask: (batch) => this.askWorker(batch),
    });
    this.scanNamed = asked;
    const scans = new Map<number, PidScan>();
    let scan: PidScan | undefined;
    let lastPid = -1;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (!scan || entry.pid !== lastPid) {
        lastPid = entry.pid;
        scan = scans.get(entry.pid);
        if (!scan) {
          const identity = this.identities.get(entry.pid);
          scan = {
            identity,
            holdings: [],
            unnamed: null,
            denied: identity?.denied ?? null,
            handleCount: 0,
            redoAtMs: Infinity,
          };
          scans.set(entry.pid, scan);
        }
      }
      scan.handleCount++;
      const cached = named[i];
      if (cached === undefined) continue;
      const outcome = cached.outcome;
      // No address to prove the name by: it waits in the due list for its re-check, unless a focus scan's.
      if ((outcome.kind === 'named' || outcome.stalled) && !this.focusPids.has(entry.pid)) this.rechecks.track(entry, cached);
      if (outcome.kind === 'unnamed') {
        scan.unnamed ??= { pid: entry.pid, name: scan.identity?.imageName || '?', count: 0, reason: outcome.reason };
        scan.unnamed.count++;
        // Never asked (the scan's deadline passed first): ask next time. A stalled one stays unnamed.
        if (!outcome.stalled) scan.redoAtMs = 0;
        continue;
      }
      const { name, directory, deletePending, error } = outcome.answer;
      if (error?.denied) scan.denied = `${error.api}: access denied`;
      if (cached.retryAtMs !== undefined) scan.redoAtMs = Math.min(scan.redoAtMs, cached.retryAtMs);
      if (name === null) continue;
      if (cached.keysVersion !== this.keys.tableVersion) {
        const keyed = this.keys.keyOf(name);
        cached.key = keyed.key;
        cached.display = keyed.display;
        cached.keysVersion = this.keys.tableVersion;
      }
      for (const spelled of dirs) {
        const path = underWatchedDir({ key: cached.key!, display: cached.display! }, spelled);
        if (path === null) continue;
        const dir = spelled.dir;
        scan.holdings.push({
          pid: entry.pid,
          kind: directory ? 'dir' : 'file',
          path,
          deleted: deletePending,
          handle: entry.handle,
          watchedDir: dir.display,
          cached,
        });
      }
    }
    return scans;
  }

  async processInfo(pid: number): Promise<ProcessInfo | null> {
    const row = this.tables.processList().find((p) => p.pid === pid);
    return row ? describeProcess(row, this.reader) : null;
  }

  /** The PEB's current directory and the handle count; access comes with each scanned holder. */
  async processExtras(pid: number): Promise<ProcessExtras | null> {
    const row = this.tables.processList().find((p) => p.pid === pid);
    if (!row) return null;
    let cwd: string | null = null;
    let cwdUnreadableReason: string | null = null;
    try {
      cwd = trimTrailingSeparators(this.reader.parameters(pid, row.createTime).currentDirectory, WINDOWS_STYLE); // the PEB keeps `C:\work\`
    } catch (error) {
      cwdUnreadableReason = `${(error as Error).message} (a process of another user or an elevated one: scan as administrator)`;
    }
    const recent = this.lastSnapshot && performance.now() - this.lastSnapshotAtMs < TABLE_REUSE_MS ? handleCountIn(this.lastSnapshot, pid) : 0;
    const handleCount = recent || this.tables.handleCountOf(pid);
    // A live process always holds some handle: none means it exited after the process list was read.
    return handleCount === 0 ? null : { cwd, cwdUnreadableReason, handleCount, handles: {} };
  }

  async dispose(): Promise<void> {
    this.modules.dispose();
    const rechecksDone = this.rechecks.dispose();
    this.worker.dispose();
    await rechecksDone;
    this.reader.dispose();
    this.identities.dispose();
    this.tables.dispose();
  }

  /** Holds every process seen (see process-identities.ts); per-process caches drop the ones that left. */
  private syncIdentities(pids: Iterable<number>, complete: boolean, gone: readonly number[] = []): void {
    this.identities.sync(pids, complete);
    this.identities.forget(gone);
    if (this.identities.version === this.identitiesVersion) return;
    this.identitiesVersion = this.identities.version;
    const live = new Map<number, bigint>();
    for (const identity of this.identities.values()) live.set(identity.pid, identity.createTime);
    this.reader.prune(live);
    for (const pid of [...this.cache.pids()])
      if (!live.has(pid)) {
        this.cache.forgetProcess(pid);
        this.rechecks.forget(pid);
      }
    this.modules.keepOnly(live);
  }

  private restrictedHandles(wanted: Set<number>, deny: (pid: number, reason: string) => void): HandleEntry[] {
    return focusedFileHandles(
      wanted,
      {
        open: (pid, rights) => openProcess(pid, rights),
        ownFileHandles: (process, pid) => this.tables.processFileHandles(process, pid),
        systemFileHandles: () => this.tables.fileHandles(),
        close: (process) => closeHandle(process),
      },
      deny,
    );
  }

  /** Names `entries` with the worker, after whatever is asking it now (a scan, or a chunk of re-checks). */
  private askWorker(entries: readonly HandleEntry[]): Promise<NameOutcome[]> {
    const turn = this.workerQueue.then(() => {
      const live = [...this.identities.values()].filter((p) => !p.denied).map((p) => ({ pid: p.pid, createTime: String(p.createTime) }));
      return this.worker.nameAll(
        entries.map((e) => ({ pid: e.pid, handle: String(e.handle) })),
        live,
      );
    });
    this.workerQueue = turn.catch(() => undefined);
    return turn;
  }
}
