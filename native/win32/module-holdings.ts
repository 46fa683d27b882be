// Files a process maps rather than holds by a handle: its main image (`exe`), its DLLs (`module`)
// and its data views (`mmap`), under a watched dir. Matched again only when a process's lists or the
// watched dirs change.
import { underWatchedDir, type SpelledDir } from './dir-aliases.js';
import type { RawHolding } from './holder-building.js';
import type { PathKeys } from './path-keys.js';
import type { ProcessIdentities } from './process-identities.js';
import type { ProcessReader } from './process-reader.js';
import { ERROR_ACCESS_DENIED, Win32Error } from './win-errors.js';

/** A process's mapped views are walked again after about this long (full scans only). */
const MAPPED_REFRESH_MS = 10_000;

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
  dirsKey: string;
  untilMs: number;
  hits: RawHolding[];
  denials: [pid: number, reason: string][];
}

export class ModuleHoldings {
  /** Per pid: the module list last matched (same array = same list), for which dirs, and the hits. */
  private readonly hits = new Map<number, { list: readonly string[]; mapped: readonly string[]; dirs: string; hits: RawHolding[] }>();
  private quiet: QuietAnswer | undefined;

  constructor(
    private readonly identities: ProcessIdentities,
    private readonly reader: ProcessReader,
    private readonly keys: PathKeys,
    private readonly moduleRefreshMs: number,
  ) {}

  /** Adds to `holdings` what each process of the scan maps from under a watched dir (`dirsKey`: their keys, joined). */
  collect(scan: ModuleScan, dirs: readonly SpelledDir[], dirsKey: string, holdings: RawHolding[], deny: (pid: number, reason: string) => void): void {
    const { wanted, nowMs } = scan;
    const quiet = this.quiet;
    if (wanted === null && quiet && quiet.identitiesVersion === this.identities.version && quiet.dirsKey === dirsKey && nowMs < quiet.untilMs) {
      for (const hit of quiet.hits) holdings.push(hit);
      for (const [pid, reason] of quiet.denials) deny(pid, reason);
      return;
    }
    // A focus scan may re-read its pids' lists: the next system scan matches them all again.
    this.quiet = undefined;
    const answer: QuietAnswer = { identitiesVersion: this.identities.version, dirsKey, untilMs: Infinity, hits: [], denials: [] };
    for (const identity of this.identities.values()) {
      if (identity.denied || (wanted && !wanted.has(identity.pid))) continue;
      let list: readonly string[];
      let mapped: readonly string[];
      // Walking an address space costs a call per region (more under Wine): full scans only, each
      // process every ~10 s, spread by pid; focus scans reuse the last walk.
      const refreshMs = MAPPED_REFRESH_MS * (0.5 + (identity.pid % 64) / 128);
      try {
        list = this.reader.modules(identity.pid, identity.createTime, this.moduleRefreshMs, nowMs);
        mapped = this.reader.mappedFiles(identity.pid, identity.createTime, refreshMs, nowMs, wanted === null, scan.firstSystemScan);
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
      const modulesDueMs = this.reader.listedAtMs(identity.pid, 'modules') + this.moduleRefreshMs;
      answer.untilMs = Math.min(answer.untilMs, modulesDueMs, this.reader.listedAtMs(identity.pid, 'mapped') + refreshMs);
    }
    if (wanted === null) this.quiet = answer;
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
