// Files a process maps rather than holds by a handle: its main image (`exe`), its DLLs (`module`)
// and its data views (`mmap`), under a watched dir. Matched again only when a process's lists or the
// watched dirs change. After the first system scan, system scans read no list a read already gave:
// due lists are re-read between scans (refreshLists), because under Wine a module list or a view walk
// is a server round trip per module or region through the target process, and a poll that waited for
// the due ones would take as long as they do.
import { underWatchedDir, type SpelledDir } from './dir-aliases.js';
import type { RawHolding } from './holder-building.js';
import type { PathKeys } from './path-keys.js';
import type { ProcessIdentities } from './process-identities.js';
import type { ProcessReader } from './process-reader.js';
import { ListsBetweenScans } from './lists-between-scans.js';
import { ERROR_ACCESS_DENIED, Win32Error } from './win-errors.js';

/** A process's mapped views are walked again after about this long (full scans only). */
const MAPPED_REFRESH_MS = 10_000;

/**
 * Walking an address space costs a call per region (more under Wine): full scans only, each process every
 * ~10 s, spread by pid; focus scans reuse the last walk.
 */
function mappedRefreshMs(pid: number): number {
  return MAPPED_REFRESH_MS * (0.5 + (pid % 64) / 128);
}

/** Which processes a scan reads, and whether it is a full one (and the first). */
export interface ModuleScan {
  wanted: ReadonlySet<number> | null;
  firstSystemScan: boolean;
  nowMs: number;
}

/**
 * A system scan's whole answer, reused by the next system scans while none of its inputs can differ: the
 * same processes and dirs, and no list due for a re-read before `untilMs`.
 */
interface QuietAnswer {
  identitiesVersion: number;
  listsVersion: number;
  dirsKey: string;
  untilMs: number;
  hits: RawHolding[];
  denials: [pid: number, reason: string][];
}

export class ModuleHoldings {
  /** Per pid: the module list last matched (same array = same list), for which dirs, and the hits. */
  private readonly hits = new Map<number, { list: readonly string[]; mapped: readonly string[]; dirs: string; hits: RawHolding[] }>();
  private quiet: QuietAnswer | undefined;
  private readonly betweenScans = new ListsBetweenScans(this, () => this.now());
  /** Bumped when a re-read between scans gives another list or fails: the next system scan matches again. */
  private listsVersion = 0;
  /** Whose re-read between scans failed: the next system scan reads them itself (and reports a denial). */
  private readAgain = new Set<number>();
  /** The earliest time a list of a process of the last system scan comes due (refreshLists). */
  private nextDueMs = Infinity;

  constructor(
    private readonly identities: ProcessIdentities,
    private readonly reader: ProcessReader,
    private readonly keys: PathKeys,
    private readonly moduleRefreshMs: number,
    /** The clock scans give their `nowMs` by: re-reads between scans are timed by it too. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Adds to `holdings` what each process of the scan maps from under a watched dir (`dirsKey`: their keys, joined). */
  collect(scan: ModuleScan, dirs: readonly SpelledDir[], dirsKey: string, holdings: RawHolding[], deny: (pid: number, reason: string) => void): void {
    const { wanted, nowMs } = scan;
    const deferred = wanted === null && !scan.firstSystemScan;
    const quiet = this.quiet;
    if (
      wanted === null &&
      quiet &&
      quiet.identitiesVersion === this.identities.version &&
      quiet.listsVersion === this.listsVersion &&
      quiet.dirsKey === dirsKey &&
      nowMs < quiet.untilMs
    ) {
      for (const hit of quiet.hits) holdings.push(hit);
      for (const [pid, reason] of quiet.denials) deny(pid, reason);
      return;
    }
    // A focus scan may re-read its pids' lists: the next system scan matches them all again.
    this.quiet = undefined;
    const answer: QuietAnswer = {
      identitiesVersion: this.identities.version,
      listsVersion: this.listsVersion,
      dirsKey,
      untilMs: Infinity,
      hits: [],
      denials: [],
    };
    const readAgain = this.readAgain;
    if (deferred) this.readAgain = new Set();
    let nextDueMs = Infinity;
    for (const identity of this.identities.values()) {
      if (identity.denied || (wanted && !wanted.has(identity.pid))) continue;
      let list: readonly string[];
      let mapped: readonly string[];
      const refreshMs = mappedRefreshMs(identity.pid);
      const keep = deferred && !readAgain.has(identity.pid);
      try {
        list = this.reader.modules(identity.pid, identity.createTime, keep ? Infinity : this.moduleRefreshMs, nowMs);
        mapped = this.reader.mappedFiles(identity.pid, identity.createTime, keep ? Infinity : refreshMs, nowMs, wanted === null, scan.firstSystemScan);
      } catch (error) {
        if (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) {
          deny(identity.pid, `${error.api}: access denied`);
          answer.denials.push([identity.pid, `${error.api}: access denied`]);
        } else answer.untilMs = -Infinity; // a process starting or exiting: asked again next scan
        continue;
      }
      let known = this.hits.get(identity.pid);
      if (!known || known.list !== list || known.mapped !== mapped || known.dirs !== dirsKey) {
        const images = this.matchFiles(identity.pid, list, dirs, (i) => (i === 0 ? 'exe' : 'module'));
        // The walk sees every image view: the ones the module list names are modules, the rest resources.
        const modulePaths = new Set(images.map((hit) => hit.path));
        const views = this.matchFiles(identity.pid, mapped, dirs, () => 'mmap').filter((hit) => !modulePaths.has(hit.path));
        const hits = [...images, ...views];
        known = { list, mapped, dirs: dirsKey, hits };
        this.hits.set(identity.pid, known);
      }
      holdings.push(...known.hits);
      answer.hits.push(...known.hits);
      const dueMs = this.dueAtMs(identity.pid, refreshMs);
      nextDueMs = Math.min(nextDueMs, dueMs);
      if (!deferred) answer.untilMs = Math.min(answer.untilMs, dueMs);
    }
    if (wanted === null) {
      this.quiet = answer;
      this.nextDueMs = nextDueMs;
      this.betweenScans.start(nowMs);
    }
  }

  /** Stops re-reading lists between scans. */
  dispose(): void {
    this.betweenScans.dispose();
  }

  /** The pids whose module or mapped-view list is due at `nowMs`: none while the earliest due time is ahead. */
  duePids(nowMs: number): number[] {
    if (nowMs < this.nextDueMs) return [];
    const due: number[] = [];
    let nextDueMs = Infinity;
    for (const { pid, denied } of this.identities.values()) {
      if (denied || !this.hits.has(pid)) continue;
      const dueMs = this.dueAtMs(pid, mappedRefreshMs(pid));
      if (dueMs <= nowMs) due.push(pid);
      else nextDueMs = Math.min(nextDueMs, dueMs);
    }
    // Each due pid is re-read once (refreshLists) before it counts again; a failed one waits for a scan.
    this.nextDueMs = nextDueMs;
    return due;
  }

  /** Re-reads `pid`'s due lists between scans; one that differs (or fails) makes the next system scan match again. */
  refreshLists(pid: number, nowMs: number): void {
    const identity = this.identities.get(pid);
    const known = this.hits.get(pid);
    if (!identity || identity.denied || !known) return;
    try {
      const list = this.reader.modules(pid, identity.createTime, this.moduleRefreshMs, nowMs);
      const mapped = this.reader.mappedFiles(pid, identity.createTime, mappedRefreshMs(pid), nowMs, true, false);
      if (list !== known.list || mapped !== known.mapped) this.listsVersion++;
    } catch {
      this.readAgain.add(pid);
      this.listsVersion++;
    }
  }

  private dueAtMs(pid: number, mappedRefresh: number): number {
    return Math.min(this.reader.listedAtMs(pid, 'modules') + this.moduleRefreshMs, this.reader.listedAtMs(pid, 'mapped') + mappedRefresh);
  }

  /** Drops the processes no longer alive. */
  keepOnly(live: ReadonlyMap<number, unknown>): void {
    for (const pid of [...this.hits.keys()]) if (!live.has(pid)) this.hits.delete(pid);
  }

  /** Module files (DOS names) or mapped files (kernel names) under a watched dir, as rows of `kind`. */
  private matchFiles(pid: number, files: readonly string[], dirs: readonly SpelledDir[], kind: (index: number) => 'exe' | 'module' | 'mmap'): RawHolding[] {
    const hits: RawHolding[] = [];
    files.forEach((file, index) => {
      const keyed = this.keys.keyOf(file);
      for (const spelled of dirs) {
        const path = underWatchedDir(keyed, spelled);
        if (path !== null) hits.push({ pid, kind: kind(index), path, deleted: false, handle: null, watchedDir: spelled.dir.display });
      }
    });
    return hits;
  }
}
