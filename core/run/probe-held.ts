// A leak only the probe saw (or a file the finalizer closed between two polls), as a holder row: the process is gone, so what a scan would have read
// (name, command line, parent) comes from the probe's own record of its process.
import type { Holder, PlatformName } from '../../contract/holders.js';
import { holderKey } from '../../contract/identity.js';
import type { JournalEntry, MemberFacts } from '../../contract/journal.js';
import type { StackLookup } from '../../contract/stacks.js';
import type { ProcessRecord } from '../../contract/probe-log.js';
import type { GcClose } from '../stacks/gc-closes.js';
import type { ProbeLeak } from '../stacks/probe-leaks.js';
import type { UnseenChildHold } from '../stacks/child-holds.js';
import type { GcCloseRecord, OpenRecord } from '../../contract/probe-log.js';
import type { HolderStacks } from '../../contract/journal.js';
import type { Member, RunMembership } from './membership.js';

/** A probe dates its process by its first record: this long after the OS's start time, at most. */
const PROBE_START_SLACK_MS = 2000;

/** What the probes' logs say at the end: the stacks of the holders seen, and the leaks no scan saw. */
export interface RunStacks {
  byKey: Record<string, HolderStacks>;
  unseen: { leak: ProbeLeak; spawn: StackLookup }[];
  /** What a delete met in a child of the deleting process that no scan saw (core/stacks/child-holds.ts). */
  childHeld: { hold: UnseenChildHold; stacks: HolderStacks }[];
  /** What the runtime's finalizer closed, the code never did; `key` the holder a scan saw for it, if one did. */
  gcClosed: { close: GcClose; key: string | null; spawn: StackLookup }[];
}

/**
 * The entries for what the probes' logs said at the end: the stacks of the holders seen, each leak no
 * scan saw as its own row, and each finalizer close on its row (or its own).
 */
export function stacksEntries(stacks: RunStacks, platform: PlatformName, membership: RunMembership | undefined): JournalEntry[] {
  const entries: JournalEntry[] = [{ t: 'stacks', byKey: stacks.byKey }];
  const heldKeys = new Map<string, string>();
  const taken = new Set(Object.keys(stacks.byKey));
  for (const { leak, spawn } of stacks.unseen) {
    const { known, parent } = probedProcess(leak.process, membership);
    const entry = apart(probeHeldEntry(leak, spawn, platform, known, parent), leak.open.atMs, taken);
    heldKeys.set(openOf(leak.open), entry.key);
    entries.push(entry);
  }
  for (const { hold, stacks: held } of stacks.childHeld) {
    const { known, parent } = probedProcess(childProcessOf(hold), membership);
    entries.push(apart(childHeldEntry(hold, held, platform, known, parent), hold.ref.processStartedAtMs, taken));
  }
  // A finalizer close of an open the probe saw held past its test is that row's; else its own row.
  for (const { close, key, spawn } of stacks.gcClosed) {
    const row = key ?? heldKeys.get(openOf(close.record)) ?? null;
    const { known, parent } = row === null ? probedProcess(close.process, membership) : { known: undefined, parent: undefined };
    const entry = gcClosedEntry(close, row, spawn, platform, known, parent);
    entries.push(entry.unseen ? apart(entry, close.record.openedAtMs, taken) : entry);
  }
  return entries;
}

/**
 * A row of its own for an open no scan saw, though another open of the same file under the same fd (a
 * later test's, the fd reused) has a row: its handle names when it was opened, so the two stay apart.
 */
function apart<E extends ProbeHeldEntry | GcClosedEntry>(entry: E, openedAtMs: number, taken: Set<string>): E {
  const holder = entry.t === 'probe-held' ? entry.holder : entry.unseen?.holder;
  if (!holder || !taken.has(entry.key)) {
    taken.add(entry.key);
    return entry;
  }
  const own = { ...holder, handle: `${holder.handle ?? 'no handle'}, opened ${new Date(openedAtMs).toISOString().slice(11, 23)}` };
  const key = holderKey(own);
  taken.add(key);
  return entry.t === 'probe-held' ? { ...entry, key, holder: own } : { ...entry, key, unseen: { ...entry.unseen!, holder: own } };
}

/** What the run knows of a probed process: itself, when a scan met it, else its parent. */
function probedProcess(
  { pid, ppid, atMs }: ProcessRecord,
  membership: RunMembership | undefined,
): { known: KnownProcess | undefined; parent: MemberFacts | undefined } {
  const self = membership?.memberNear(pid, atMs, PROBE_START_SLACK_MS);
  const parent = membership?.memberNear(ppid, atMs, Infinity);
  const facts = (m: Member): MemberFacts => ({ ancestry: m.ancestry, byTagOnly: m.byTagOnly });
  return {
    known: self ? { startedAtMs: self.startedAtMs, member: facts(self) } : undefined,
    parent: parent && parent.startedAtMs <= atMs ? facts(parent) : undefined,
  };
}

/** One open of one process, by what both its open record and its gc-close record carry. */
function openOf(open: OpenRecord | GcCloseRecord): string {
  return `${open.pid}\0${open.path}\0${open.fd ?? ''}\0${open.kind === 'gc-close' ? open.openedAtMs : open.atMs}`;
}

export type ProbeHeldEntry = Extract<JournalEntry, { t: 'probe-held' }>;
export type GcClosedEntry = Extract<JournalEntry, { t: 'gc-closed' }>;

/** How the run knew the process, when a scan met it alive (its OS start time, its chain). */
export interface KnownProcess {
  startedAtMs: number;
  member: MemberFacts;
}

/**
 * The journal entry for one probe-seen leak. `known` is the run's membership of the process when it
 * met it, else `parent`'s (its chain, with this process in front), else a chain of the process alone:
 * it belongs to the run all the same, since only the run's processes write to the run's probe logs.
 */
export function probeHeldEntry(
  leak: ProbeLeak,
  spawn: StackLookup,
  platform: PlatformName,
  known: KnownProcess | undefined,
  parent: MemberFacts | undefined,
): ProbeHeldEntry {
  const { open } = leak;
  const deleted = leak.stack.unlinkedWhileOpen === true;
  const { holder, member } = probedHolder(
    leak.process,
    { path: open.path, fd: open.fd, deleted, watchedDir: leak.watchedDir, ...(open.cwd ? { cwd: true } : {}) },
    platform,
    known,
    parent,
  );
  return {
    t: 'probe-held',
    atMs: open.atMs,
    heldUntilMs: leak.heldUntilMs,
    key: holderKey(holder),
    holder,
    member,
    stacks: { open: { found: true, stack: leak.stack, matchedBy: 'fd', viaPid: null }, spawn },
  };
}

/**
 * The journal entry for a child's holding that its parent's delete met and no scan saw: held from its
 * process's start (a holding is never older than it) to that delete.
 */
function childHeldEntry(
  hold: UnseenChildHold,
  stacks: HolderStacks,
  platform: PlatformName,
  known: KnownProcess | undefined,
  parent: MemberFacts | undefined,
): ProbeHeldEntry {
  const fd = hold.ref.handle === null ? null : Number(hold.ref.handle.slice(3));
  const open = { path: hold.ref.path, fd, deleted: false, watchedDir: hold.watchedDir, ...(fd === null ? { cwd: true } : {}) };
  const { holder, member } = probedHolder(childProcessOf(hold), open, platform, known, parent);
  return { t: 'probe-held', atMs: hold.ref.processStartedAtMs, heldUntilMs: hold.call.atMs, key: holderKey(holder), holder, member, stacks };
}

/** The child as a process record says it (what probedHolder reads: pid, parent, start, argv), probed or not. */
function childProcessOf(hold: UnseenChildHold): ProcessRecord {
  return { v: 1, kind: 'process', runtime: 'node', pid: hold.ref.pid, ppid: hold.ppid, atMs: hold.ref.processStartedAtMs, argv: hold.argv, cwd: null };
}

/**
 * The journal entry for one finalizer close: `key` is the holder a scan saw for it; without one,
 * the entry brings the holder as the probe knew it (as a probe-held entry does).
 */
export function gcClosedEntry(
  close: GcClose,
  key: string | null,
  spawn: StackLookup,
  platform: PlatformName,
  known: KnownProcess | undefined,
  parent: MemberFacts | undefined,
): GcClosedEntry {
  const { record } = close;
  const open = { found: true as const, stack: close.stack, matchedBy: 'fd' as const, viaPid: null };
  const facts = {
    t: 'gc-closed' as const,
    atMs: record.atMs,
    openedAtMs: record.openedAtMs,
    closedDuring: record.closedDuring ?? null,
    resource: record.resource,
    api: record.api,
  };
  if (key !== null) return { ...facts, key, open };
  const fd = record.resource === 'file' ? record.fd : null;
  const { holder, member } = probedHolder(close.process, { path: record.path, fd, deleted: false, watchedDir: close.watchedDir }, platform, known, parent);
  const stacks = { open, spawn };
  return { ...facts, key: holderKey(holder), unseen: { holder, member, stacks } };
}

/** A holder row for what the probe saw open in a process no scan met holding it. */
function probedHolder(
  process: ProcessRecord,
  open: { path: string; fd: number | null; deleted: boolean; watchedDir: string; cwd?: boolean },
  platform: PlatformName,
  known: KnownProcess | undefined,
  parent: MemberFacts | undefined,
): { holder: Holder; member: MemberFacts } {
  const processName = nameOf(process.argv[0] ?? '', platform);
  const commandLine = process.argv.join(' ');
  const self = { pid: process.pid, name: processName, commandLine };
  const member: MemberFacts =
    known?.member ?? (parent ? { ancestry: [self, ...parent.ancestry], byTagOnly: parent.byTagOnly } : { ancestry: [self], byTagOnly: true });
  const holder: Holder = {
    pid: process.pid,
    ppid: process.ppid,
    processStartedAtMs: known?.startedAtMs ?? process.atMs,
    processName,
    commandLine,
    user: null,
    kind: open.cwd ? 'cwd' : 'file',
    path: open.path,
    deleted: open.deleted,
    // The runtime's fd as the probe saw it (on Windows a C runtime fd, not a handle value).
    handle: open.fd === null ? null : `fd ${open.fd}`,
    watchedDir: open.watchedDir,
  };
  return { holder, member };
}

/** The executable's file name, as a process list shows it: `node`, `node.exe`. */
function nameOf(executable: string, platform: PlatformName): string {
  return executable.split(platform === 'win32' ? /[\\/]/ : /\//).pop() ?? executable;
}
