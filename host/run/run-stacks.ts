// At the end of a run: reads the probes' logs and pairs each holder with the code that opened it, the
// code that started its process and a parent's delete that met it, and finds the leaks the probes saw
// that no scan did.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HolderStacks } from '../../contract/journal.js';
import type { OpenStack } from '../../contract/stacks.js';
import type { KeyedHolder } from '../../core/run/run-recorder.js';
import type { RunStacks } from '../../core/run/probe-held.js';
import type { WatchDir } from '../../core/platform.js';
import { isUnder, pathStyleOf } from '../../core/paths.js';
import { LEDGER_FILE_NAME, ledgerRecords } from '../../core/stacks/syscall-ledger.js';
import {
  deletedUnderChild,
  findGcCloses,
  findProbeLeaks,
  findUnseenChildHolds,
  indexProbeRecords,
  matchOpenStack,
  matchSpawnStack,
  openIdentity,
  parseProbeLog,
  type GcClose,
  type ProbeIndex,
  type ProbeRecord,
} from '../../core/stacks/index.js';

/**
 * The probes' logs, and the syscall ledgers of the processes no probe runs in (`strace-<pid of the
 * -exec program>-<ms>.ledger`, probes/go/exec), of which only opens under `keepPath` are kept.
 */
export function readProbeRecords(logDir: string, keepPath: (path: string) => boolean = () => true): ProbeRecord[] {
  let names: string[];
  try {
    names = readdirSync(logDir);
  } catch {
    return []; // no probed process ran
  }
  return names.flatMap((name) => {
    if (name.endsWith('.jsonl')) return parseProbeLog(readFileSync(join(logDir, name), 'utf8')).records;
    const ledger = LEDGER_FILE_NAME.exec(name);
    if (ledger) return ledgerRecords(readFileSync(join(logDir, name), 'utf8'), { parentPid: Number(ledger[1]), keepPath });
    return [];
  });
}

export async function matchRunStacks(logDir: string, holders: readonly KeyedHolder[], dirs: readonly WatchDir[]): Promise<RunStacks> {
  const index = indexProbeRecords(readProbeRecords(logDir, (path) => watchedDirOf(path, dirs) !== null));
  const byKey: Record<string, HolderStacks> = {};
  for (const { key, holder, seenFromMs } of holders) {
    const ancestorPids = holder.attribution.ancestry.slice(1).map((a) => a.pid);
    const ref = {
      pid: holder.pid,
      processStartedAtMs: holder.processStartedAtMs,
      kind: holder.kind,
      path: holder.path,
      handle: holder.handle,
      firstSeenAtMs: Date.parse(holder.attribution.firstSeenAt),
      ...(seenFromMs === undefined ? {} : { seenFromMs }),
      ancestorPids,
    };
    const deletedBy = deletedUnderChild(ref, index);
    byKey[key] = {
      open: matchOpenStack(ref, index),
      spawn: matchSpawnStack(
        { pid: holder.pid, ppid: holder.ppid, startedAtMs: holder.processStartedAtMs, commandLine: holder.commandLine, ancestorPids },
        index,
      ),
      ...(deletedBy ? { deletedBy } : {}),
    };
  }
  const matched = new Set(Object.values(byKey).flatMap(({ open }) => (open.found ? [openIdentity(open.stack)] : [])));
  // Also what a scan saw under the same fd, whatever its stack lookup chose: one handle, one row.
  const heldFds = new Set(holders.map(({ holder }) => `${holder.pid}\0${holder.path}\0${holder.handle ?? ''}`));
  // A chdir's record has no fd: a scan's cwd row has no handle.
  const handleOf = (stack: OpenStack) => (stack.fd === null ? '' : `fd ${stack.fd}`);
  const seen = (stack: OpenStack) => matched.has(openIdentity(stack)) || heldFds.has(`${stack.pid}\0${stack.path}\0${handleOf(stack)}`);
  const leaks = findProbeLeaks(index, { watchedDirOf: (path) => watchedDirOf(path, dirs), seen });
  const unseen = leaks.map((leak) => ({
    leak,
    spawn: matchSpawnStack({ pid: leak.process.pid, ppid: leak.process.ppid, startedAtMs: leak.process.atMs, commandLine: leak.process.argv.join(' ') }, index),
  }));
  // What a delete met in a child of the deleting process that no scan saw: its own row, matched alike.
  const seenHolding = (pid: number, path: string, handle: string | null) => heldFds.has(`${pid}\0${path}\0${handle ?? ''}`);
  const childHeld = findUnseenChildHolds(index, { watchedDirOf: (path) => watchedDirOf(path, dirs), seen: seenHolding }).map((hold) => {
    const deletedBy = deletedUnderChild(hold.ref, index);
    const spawnOf = { pid: hold.ref.pid, ppid: hold.ppid, startedAtMs: hold.ref.processStartedAtMs, commandLine: hold.argv.join(' ') };
    return { hold, stacks: { open: matchOpenStack(hold.ref, index), spawn: matchSpawnStack(spawnOf, index), ...(deletedBy ? { deletedBy } : {}) } };
  });
  const gcClosed = findGcCloses(index, (path) => watchedDirOf(path, dirs)).map((close) => ({
    close,
    key: scannedKeyOf(close, holders, byKey, index),
    spawn: matchSpawnStack(
      { pid: close.process.pid, ppid: close.process.ppid, startedAtMs: close.process.atMs, commandLine: close.process.argv.join(' ') },
      index,
    ),
  }));
  return { byKey, unseen, childHeld, gcClosed };
}

/** How far apart the probe's two readings of one open's time (its open record, its gc-close's openedAtMs) may be. */
const SAME_OPEN_MS = 50;

/**
 * The holder a scan saw for what the finalizer closed: the one whose open stack is that open, else
 * one of that process holding the same path under the same fd while it was open; null when no scan
 * saw it (opened and finalized between two polls, the usual case).
 */
function scannedKeyOf(close: GcClose, holders: readonly KeyedHolder[], byKey: Record<string, HolderStacks>, index: ProbeIndex): string | null {
  const { record } = close;
  // Two tests a few ms apart may open one file under one reused fd: the close is the nearest open's.
  const nearest = nearestOpenMs(record, index);
  const isThisOpen = (stack: OpenStack) => Math.abs(stack.atMs - record.openedAtMs) <= SAME_OPEN_MS && (nearest === null || stack.atMs === nearest);
  const sameOpen = (stack: OpenStack) => stack.pid === record.pid && stack.path === record.path && stack.fd === record.fd && isThisOpen(stack);
  const byStack = Object.entries(byKey).find(([, { open }]) => open.found && open.viaPid === null && sameOpen(open.stack));
  if (byStack) return byStack[0];
  if (record.fd === null) return null;
  const held = holders.find(({ key, holder, seenFromMs }) => {
    // Seen by a scan that ended after the open and began before the close (it read the fd between).
    const seenTo = Date.parse(holder.attribution.firstSeenAt);
    const seenFrom = Math.min(seenFromMs ?? seenTo, seenTo);
    // A row whose open stack is another open of this file (the fd reused by a later test) is not this one's.
    const own = byKey[key]?.open;
    if (own?.found && own.viaPid === null && own.stack.path === record.path && !isThisOpen(own.stack)) return false;
    return (
      holder.pid === record.pid &&
      holder.path === record.path &&
      holder.handle === `fd ${record.fd}` &&
      seenTo >= record.openedAtMs - SAME_OPEN_MS &&
      seenFrom <= record.atMs + SAME_OPEN_MS
    );
  });
  return held?.key ?? null;
}

/** The time of this process's open record of the closed file nearest to the close's reading of it. */
function nearestOpenMs(close: GcClose['record'], index: ProbeIndex): number | null {
  let best: number | null = null;
  for (const r of index.byPid.get(close.pid) ?? []) {
    if ((r.kind !== 'open' && r.kind !== 'connect') || r.path !== close.path) continue;
    if (best === null || Math.abs(r.atMs - close.openedAtMs) < Math.abs(best - close.openedAtMs)) best = r.atMs;
  }
  return best;
}

/**
 * The watched dir a probe's path lies under, in any of the forms the code may have named it by: the
 * canonical one, or the one the user typed (a symlinked temp dir). Windows 8.3 short names are not
 * expanded here (that would open handles): a probe path in short form is missed.
 */
function watchedDirOf(path: string, dirs: readonly WatchDir[]): string | null {
  const dir = dirs.find((d) => [d.display, d.input].some((form) => isUnder(path, form, pathStyleOf(d))));
  return dir?.display ?? null;
}
