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

export class ModuleHoldings {
  /** Per pid: the module list last matched (same array = same list), for which dirs, and the hits. */
  private readonly hits = new Map<number, { list: readonly string[]; mapped: readonly string[]; dirs: string; hits: RawHolding[] }>();

  constructor(
    private readonly identities: ProcessIdentities,
    private readonly reader: ProcessReader,
    private readonly keys: PathKeys,
    private readonly moduleRefreshMs: number,
  ) {}

  /** Adds to `holdings` what each process of the scan maps from under a watched dir. */
  collect(scan: ModuleScan, dirs: readonly SpelledDir[], holdings: RawHolding[], deny: (pid: number, reason: string) => void): void {
    const { wanted, nowMs } = scan;
    const dirsKey = dirs.flatMap((d) => d.spellings.map((s) => s.key)).join('\0');
    for (const identity of this.identities.values()) {
      if (identity.denied || (wanted && !wanted.has(identity.pid))) continue;
      let list: readonly string[];
      let mapped: readonly string[];
      try {
        list = this.reader.modules(identity.pid, identity.createTime, this.moduleRefreshMs, nowMs);
        // Walking an address space costs a call per region (more under Wine): full scans only, each
        // process every ~10 s, spread by pid; focus scans reuse the last walk.
        const refreshMs = MAPPED_REFRESH_MS * (0.5 + (identity.pid % 64) / 128);
        mapped = this.reader.mappedFiles(identity.pid, identity.createTime, refreshMs, nowMs, wanted === null, scan.firstSystemScan);
      } catch (error) {
        if (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) deny(identity.pid, `${error.api}: access denied`);
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
    }
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
