// What a test process listed itself holding at a test's (or scope's) end, as journal entries: holdings
// no poll met become rows, and those gone since its last list are gone. What a poll met stays the
// poll's to follow.
import type { BoundaryHeld } from '../../contract/boundary.js';
import type { Holder, ProcessInfo } from '../../contract/holders.js';
import { holderKey } from '../../contract/identity.js';
import type { JournalEntry, MemberFacts } from '../../contract/journal.js';
import type { ProcessSource, WatchDir } from '../platform.js';
import { isOnOrUnder } from './holders-on-path.js';

export interface ListedSnapshot {
  pid: number;
  atMs: number;
  info: ProcessInfo;
  member: MemberFacts | null;
  listed: readonly BoundaryHeld[];
}

export class ListedHoldings {
  /** Per listing process, the keys its last own list held, with when: what a later list lacks is gone. */
  private readonly byPid = new Map<number, Map<string, number>>();
  private readonly infos = new Map<number, Promise<ProcessInfo | null>>();

  constructor(
    private readonly dirs: readonly WatchDir[],
    private readonly processes: ProcessSource,
  ) {}

  /**
   * A listing process's facts, read once per pid (its start time makes the holders' keys). A short
   * suite's process may have exited before its last list is read: then `known` (the run's record of it) answers.
   */
  processInfo(pid: number, known: () => ProcessInfo | null): Promise<ProcessInfo | null> {
    let info = this.infos.get(pid);
    if (!info) {
      info = this.processes
        .processInfo(pid)
        .catch(() => null)
        .then((read) => read ?? known());
      this.infos.set(pid, info);
    }
    return info;
  }

  /**
   * The entries for one list; `polled` says whether a poll follows a key, `linked` is the set of
   * holders whose path was still linked when last journaled (an unlink is journaled once). Returns
   * the keys the list holds.
   */
  apply(snapshot: ListedSnapshot, polled: (key: string) => boolean, linked: Set<string>, write: (entry: JournalEntry) => void): string[] {
    const { pid, atMs, member } = snapshot;
    const previous = this.byPid.get(pid) ?? new Map<string, number>();
    const current = new Map<string, number>();
    for (const holder of this.holdersOf(snapshot)) {
      const key = holderKey(holder);
      current.set(key, atMs);
      if (!previous.has(key) && !polled(key)) {
        if (!holder.deleted) linked.add(key);
        write({ t: 'appeared', atMs, scanStartedAtMs: atMs, key, holder, member });
      } else if (holder.deleted && linked.delete(key)) write({ t: 'deleted', atMs, key });
    }
    for (const [key, lastSeenAtMs] of previous) if (!current.has(key) && !polled(key)) write({ t: 'gone', atMs, key, lastSeenAtMs });
    this.byPid.set(pid, current);
    return [...current.keys()];
  }

  private holdersOf({ pid, info, listed }: ListedSnapshot): Holder[] {
    return listed.flatMap((h) => {
      const dir = this.dirs.find((d) => isOnOrUnder(h.path, d.matchPrefix));
      if (!dir) return [];
      const holder: Holder = {
        pid,
        ppid: info.ppid,
        processStartedAtMs: info.startedAtMs,
        processName: info.name,
        commandLine: info.commandLine,
        user: info.user,
        kind: h.kind,
        path: h.path,
        deleted: h.deleted,
        handle: h.fd === null ? null : `fd ${h.fd}`,
        watchedDir: dir.display,
      };
      return [holder];
    });
  }
}
