// The rows of a run's holders as its journal entries describe them: first and last sight, gone, the
// probe's stacks, the finalizer's close. RunRecorder attributes them; this only keeps the facts.
import type { Holder } from '../../contract/holders.js';
import { inheritedCopyKey, processKey } from '../../contract/identity.js';
import type { HolderStacks, JournalEntry, MemberFacts } from '../../contract/journal.js';
import type { GcResource } from '../../contract/probe-log.js';

export interface LedgerRow {
  key: string;
  holder: Holder;
  member: MemberFacts | null;
  firstSeenAtMs: number;
  /** The start of the scan that first saw it: sightings and boundary scans are ordered by this. */
  firstScanStartedAtMs: number;
  lastSeenAtMs: number;
  goneAtMs: number | null;
  blocked: boolean;
  stacks?: HolderStacks;
  /** Set for a holding only the probe saw (its process exited before a scan). */
  seenByProbe?: boolean;
  /** The runtime's finalizer closed it, not the code (the probe's gc-close record). */
  closedByFinalizer?: { atMs: number; during: string | null; resource: GcResource; api: string };
}

type Entry<T extends JournalEntry['t']> = Extract<JournalEntry, { t: T }>;

export class HolderLedger {
  private readonly rows = new Map<string, LedgerRow>();

  get(key: string): LedgerRow | undefined {
    return this.rows.get(key);
  }

  values(): LedgerRow[] {
    return [...this.rows.values()];
  }

  appeared(entry: Entry<'appeared'>): void {
    // A poll meeting what the process's own list already made a row of: the same holding, first seen then.
    const listed = this.rows.get(entry.key);
    if (listed && listed.goneAtMs === null) {
      // The scan may have begun before the list was taken: an unlink the list saw stays seen.
      listed.holder = { ...entry.holder, deleted: entry.holder.deleted || listed.holder.deleted };
      return;
    }
    this.rows.set(entry.key, {
      key: entry.key,
      holder: entry.holder,
      member: entry.member,
      firstSeenAtMs: entry.atMs,
      firstScanStartedAtMs: entry.scanStartedAtMs ?? entry.atMs,
      lastSeenAtMs: entry.scanStartedAtMs ?? entry.atMs,
      goneAtMs: null,
      blocked: false,
    });
  }

  /** The process exec'd while holding: the row names it as it is now, in the holder and its own ancestry entry. */
  changed(entry: Entry<'changed'>): void {
    const row = this.rows.get(entry.key);
    if (!row) return;
    const { holder } = entry;
    row.holder = { ...holder, deleted: holder.deleted || row.holder.deleted };
    const [self, ...above] = row.member?.ancestry ?? [];
    if (row.member && self?.pid === holder.pid)
      row.member = { ...row.member, ancestry: [{ ...self, name: holder.processName, commandLine: holder.commandLine }, ...above] };
  }

  deleted(key: string): void {
    const row = this.rows.get(key);
    if (row) row.holder = { ...row.holder, deleted: true };
  }

  gone(entry: Entry<'gone'>): void {
    const row = this.rows.get(entry.key);
    if (row) Object.assign(row, { goneAtMs: entry.atMs, lastSeenAtMs: entry.lastSeenAtMs });
  }

  blocked(keys: readonly string[]): void {
    for (const key of keys) {
      const row = this.rows.get(key);
      if (row) row.blocked = true;
    }
  }

  stacks(byKey: Entry<'stacks'>['byKey']): void {
    for (const [key, stacks] of Object.entries(byKey)) {
      const row = this.rows.get(key);
      if (!row) continue;
      row.stacks = stacks;
      // The probe saw the file unlinked while open at its test's end, whether or not a scan saw that.
      if (stacks.open.found && stacks.open.stack.unlinkedWhileOpen) row.holder = { ...row.holder, deleted: true };
    }
  }

  probeHeld(entry: Entry<'probe-held'>): void {
    this.rows.set(entry.key, {
      key: entry.key,
      holder: entry.holder,
      member: entry.member,
      firstSeenAtMs: entry.atMs,
      firstScanStartedAtMs: entry.atMs,
      lastSeenAtMs: entry.heldUntilMs,
      goneAtMs: entry.heldUntilMs,
      blocked: false,
      stacks: entry.stacks,
      seenByProbe: true,
    });
  }

  gcClosed(entry: Entry<'gc-closed'>): void {
    const closedByFinalizer = { atMs: entry.atMs, during: entry.closedDuring, resource: entry.resource, api: entry.api };
    const row = this.rows.get(entry.key);
    if (row) {
      row.closedByFinalizer = closedByFinalizer;
      // The finalizer's record names the open it closed: no stack matched by a scan's date beats it.
      // It keeps the scope the open record gave (a module fixture's), which the finalizer's lacks.
      const scope = row.stacks?.open.found ? row.stacks.open.stack.scope : undefined;
      const open = scope && entry.open?.found && entry.open.stack.test == null ? { ...entry.open, stack: { ...entry.open.stack, scope } } : entry.open;
      if (open) row.stacks = { open, spawn: row.stacks?.spawn ?? { found: false, reason: 'no spawn stack: not matched' } };
    } else if (entry.unseen)
      this.rows.set(entry.key, {
        key: entry.key,
        holder: entry.unseen.holder,
        member: entry.unseen.member,
        firstSeenAtMs: entry.openedAtMs,
        firstScanStartedAtMs: entry.openedAtMs,
        lastSeenAtMs: entry.atMs,
        goneAtMs: entry.atMs,
        blocked: false,
        stacks: entry.unseen.stacks,
        seenByProbe: true,
        closedByFinalizer,
      });
  }

  /** The run's end: each holder's last sighting as the supervisor knew it. */
  lastSeen(byKey: Record<string, number>): void {
    for (const [key, atMs] of Object.entries(byKey)) {
      const row = this.rows.get(key);
      if (row) row.lastSeenAtMs = Math.max(row.lastSeenAtMs, atMs);
    }
  }
}

/**
 * One leak, one row: a row whose process descends from another row's holding the same thing (the same
 * path, kind and fd number: an fd inherited across fork and exec; the same current directory) folds
 * into its nearest such ancestor's row, which lists it. Fd numbers survive fork and exec, so the same
 * number on the same path in a child stands for the open its parent made.
 */
export function foldInherited(rows: readonly LedgerRow[]): { row: LedgerRow; also: LedgerRow[] }[] {
  // Not the deleted mark: a row keeps its latest sighting, so a parent seen after the file was unlinked
  // reads deleted while a 5 ms child that inherited the same fd was seen before (a bats writer's sleeps).
  const sameThing = (r: LedgerRow) => inheritedCopyKey(r.holder);
  const groups = new Map<string, LedgerRow[]>();
  for (const row of rows) groups.set(sameThing(row), [...(groups.get(sameThing(row)) ?? []), row]);
  const parentOf = new Map<LedgerRow, LedgerRow>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const byPid = new Map(group.map((r) => [r.holder.pid, r]));
    for (const row of group) {
      // The chain runs from the process itself up: its ancestors are the rest.
      const ancestors = row.member?.ancestry.filter((a) => a.pid !== row.holder.pid) ?? [];
      const holder = ancestors.map((a) => byPid.get(a.pid)).find((r) => r !== undefined && r.holder.processStartedAtMs <= row.holder.processStartedAtMs);
      if (holder) parentOf.set(row, holder);
    }
  }
  const rootOf = (row: LedgerRow): LedgerRow => {
    let at = row;
    for (let hops = 0; parentOf.has(at) && hops < 64; hops++) at = parentOf.get(at)!;
    return at;
  };
  const folded = new Map<LedgerRow, LedgerRow[]>();
  for (const row of rows) {
    const root = rootOf(row);
    if (root === row) folded.set(row, folded.get(row) ?? []);
    else folded.set(root, [...(folded.get(root) ?? []), row]);
  }
  return rows.filter((r) => folded.has(r)).map((row) => ({ row, also: folded.get(row)! }));
}

/**
 * One process, one path, one row: a handle that only names the file (no read, write or delete right:
 * Windows attributes-only access, Linux O_PATH), beside one of the same process on the same path that
 * has rights, adds nothing and is left out. It takes no part in share checks, and the process holds
 * the file through the other anyway: a teardown's own stat of the file it cannot delete (Node's
 * rmSync opens it for FILE_READ_ATTRIBUTES) would otherwise read as a second holder.
 */
export function withoutNamingCopies(rows: readonly LedgerRow[]): LedgerRow[] {
  const samePlace = (r: LedgerRow) => `${processKey(r.holder)}\0${r.holder.kind}\0${r.holder.path}`;
  const namesOnly = (r: LedgerRow) => r.holder.access !== undefined && r.holder.access.rights.length === 0;
  const withRights = new Set(rows.filter((r) => !namesOnly(r)).map(samePlace));
  return rows.filter((r) => !namesOnly(r) || !withRights.has(samePlace(r)));
}

/**
 * One process, one file, one row: a mapping of a file (a bolt or LMDB database, a memmap) beside a
 * descriptor of the same process on the same path is the same leak, held through both, and the
 * descriptor's row carries the evidence (the open, its test). The mapping's row is left out while the
 * descriptor's was seen as late and was blocked when it was; a mapping that outlived its descriptor (an
 * mmap whose file was closed) keeps its row, for on Windows the mapped view alone still holds the file.
 */
export function withoutMappingCopies(rows: readonly LedgerRow[]): LedgerRow[] {
  const samePlace = (r: LedgerRow) => `${processKey(r.holder)}\0${r.holder.path}`;
  const files = new Map(rows.filter((r) => r.holder.kind === 'file').map((r) => [samePlace(r), r]));
  return rows.filter((r) => {
    const file = r.holder.kind === 'mmap' ? files.get(samePlace(r)) : undefined;
    return !file || file.lastSeenAtMs < r.lastSeenAtMs || (r.blocked && !file.blocked);
  });
}
