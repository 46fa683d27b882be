// Scan results -> Holders: each holding with its process's facts (command line, user, start time) and
// its kind made final (a directory handle that is the cwd). A holding kept from the last scan keeps
// its Holder object, so the watcher's diff (core/poll-diff.ts) sees it unchanged at one comparison.
import type { Holder, HolderKind } from '../../contract/holders.js';
import { windowsHandleAccess } from '../../core/handle-access.js';
import { basename } from 'node:path';
import { classifyHandle } from './handle-kind.js';
import { ownProcesses } from './own-processes.js';
import { sameNumbers } from './same-numbers.js';
import type { CachedName } from './name-cache.js';
import type { ProcessIdentities, ProcessIdentity } from './process-identities.js';
import type { ProcessReader } from './process-reader.js';
import { ERROR_ACCESS_DENIED, Win32Error } from './win-errors.js';
import { fileTimeToUnixMs } from './win-types.js';

/** Something held under a watched dir, before its process's facts are added. */
export interface RawHolding {
  pid: number;
  kind: HolderKind;
  path: string;
  deleted: boolean;
  handle: bigint | null;
  watchedDir: string;
  cached?: CachedName;
}

export class HolderBuilder {
  /** The Holder built from each holding, for as long as the holding is kept (lastScans, module hits). */
  private readonly built = new WeakMap<RawHolding, { holder: Holder; identity: ProcessIdentity }>();
  /** The last ownPids answer, with the identities' version and the roots it was worked out for. */
  private own: { version: number; roots: number[]; pids: ReadonlySet<number> } | undefined;

  constructor(
    private readonly identities: ProcessIdentities,
    private readonly reader: ProcessReader,
    /** holdwatch's own pids now (this process, its name worker, the host it scans for): never holders, nor their app children. */
    private readonly ownRoots: () => Iterable<number>,
  ) {}

  /**
   * holdwatch's own processes now: never holders, so a scan need not name their handles either. Worked
   * out again only when a process came or went or the roots changed: a steady poll asks twice.
   */
  ownPids(): ReadonlySet<number> {
    const roots = [...this.ownRoots()];
    if (this.own && this.own.version === this.identities.version && sameNumbers(roots, this.own.roots)) return this.own.pids;
    const pids = ownProcesses(this.identities.values(), roots, process.versions.electron ? basename(process.execPath) : null);
    this.own = { version: this.identities.version, roots, pids };
    return pids;
  }

  build(holdings: readonly RawHolding[], deny: (pid: number, reason: string) => void): Holder[] {
    const holders: Holder[] = [];
    const own = this.ownPids();
    for (const raw of holdings) {
      const identity = this.identities.get(raw.pid);
      if (!identity || own.has(raw.pid)) continue;
      const built = this.built.get(raw);
      // The current-directory question is asked again after a re-check (background-rechecks.ts).
      const cwdUnknown = raw.kind === 'dir' && raw.cached !== undefined && raw.cached.isCwd === undefined;
      if (built && built.identity === identity && built.holder.processName === identity.imageName && !cwdUnknown) {
        holders.push(built.holder);
        continue;
      }
      let commandLine = '';
      let kind = raw.kind;
      let complete = true;
      try {
        commandLine = this.reader.commandLine(raw.pid, identity.createTime);
        // Asked once per handle: a chdir opens a new handle (a new cache entry) and closes this one.
        const cached = raw.cached;
        if (raw.kind === 'dir' && cached)
          kind = classifyHandle(true, () => (cached.isCwd ??= this.reader.parameters(raw.pid, identity.createTime).currentDirectoryHandle === raw.handle));
      } catch (error) {
        complete = false; // asked again next scan, and denied again if so
        if (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) deny(raw.pid, `${error.api}: access denied`);
      }
      const holder: Holder = {
        pid: raw.pid,
        ppid: identity.ppid,
        processStartedAtMs: fileTimeToUnixMs(identity.createTime),
        processName: identity.imageName,
        commandLine,
        user: this.safeUser(raw.pid, identity.createTime),
        kind,
        path: raw.path,
        deleted: raw.deleted,
        handle: raw.handle === null ? null : `0x${raw.handle.toString(16)}`,
        watchedDir: raw.watchedDir,
        // GrantedAccess came with the handle table row: decoding it costs a memoised lookup.
        ...(raw.cached ? { access: windowsHandleAccess(raw.cached.access, kind) } : {}),
      };
      if (complete && commandLine !== '') this.built.set(raw, { holder, identity });
      holders.push(holder);
    }
    return holders;
  }

  private safeUser(pid: number, createTime: bigint): string | null {
    try {
      return this.reader.user(pid, createTime);
    } catch {
      return null;
    }
  }
}
