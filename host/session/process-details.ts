// One process as the details panel shows it, read fresh: its facts and live parent chain, what it
// holds under the session's watched dirs with how each handle was opened, its children, its run tag,
// and whether holdwatch will end it. Ending it too: identified by (pid, start time), never pid alone.
import { sameProcessStart } from '../../core/same-process.js';
import type { ProcessDetails, RunMembershipDto } from '../../contract/details.js';
import type { ProcessInfo } from '../../contract/holders.js';
import { refusalToCloseIn } from '../../core/close-policy.js';
import { refusalToEnd } from '../../core/end-policy.js';
import { BadInputError } from '../../core/errors.js';
import { shareModeOf } from '../../core/handle-access.js';
import type { HolderSource, ProcessSource, WatchDir } from '../../core/platform.js';
import { RUN_TAG_VARIABLE } from '../../core/run/membership.js';

const MAX_ANCESTRY = 64;

export interface ProcessFacts {
  info: ProcessInfo;
  /** Why holdwatch will not end it (itself, a system process); null when it may. */
  endRefusal: string | null;
  /** Why holdwatch will not close its handles (Linux, itself, a system process; protection is read at the close); null when it offers to. */
  closeRefusal: string | null;
}

/** The process now, or null when it is gone; `ownPids` are holdwatch's own (never ended). */
export async function processFacts(source: HolderSource, pid: number, ownPids: readonly number[]): Promise<ProcessFacts | null> {
  const info = await source.processInfo(pid);
  if (!info) return null;
  const self = { ownPids, platform: source.platform };
  return { info, endRefusal: refusalToEnd(info, self), closeRefusal: refusalToCloseIn(info, null, self) };
}

/** Start times are read from the same source, but rounding may differ by a tick; a reused pid differs by far more. */
/** The process the user saw, not a reused pid: exact on Windows, within Linux's estimate (core/same-process.ts). */
export function isSameProcess(info: ProcessInfo, startedAtMs: number): boolean {
  return sameProcessStart(startedAtMs, info.startedAtMs, process.platform);
}

export interface DetailsContext {
  source: HolderSource;
  processes: ProcessSource;
  /** Every dir the session watches (watches and runs): the holdings are looked for under these. */
  dirs: readonly WatchDir[];
  membershipOf: (pid: number, startedAtMs: number) => RunMembershipDto | null;
}

export async function readProcessDetails(
  { info, endRefusal, closeRefusal }: ProcessFacts,
  { source, processes, dirs, membershipOf }: DetailsContext,
): Promise<ProcessDetails> {
  const pid = info.pid;
  const ancestry: ProcessDetails['ancestry'] = [];
  const seen = new Set([pid]);
  for (let ppid = info.ppid; ppid > 0 && !seen.has(ppid) && ancestry.length < MAX_ANCESTRY;) {
    seen.add(ppid);
    const parent = await source.processInfo(ppid);
    if (!parent) break;
    ancestry.push({ pid: parent.pid, name: parent.name, commandLine: parent.commandLine });
    ppid = parent.ppid;
  }
  // A focused scan of this one process over every dir the session watches: its holdings now.
  const unique = [...new Map(dirs.map((d) => [d.matchPrefix, d])).values()];
  const held =
    unique.length === 0
      ? []
      : (await source.scan({ dirs: unique, pids: [pid] })).holders.filter((h) => h.pid === pid && h.processStartedAtMs === info.startedAtMs);
  const extras = await source.processExtras?.(
    pid,
    held.flatMap((h) => (h.handle ? [h.handle] : [])),
  );
  const [environmentTag, everyone] = await Promise.all([processes.readEnvironmentVariable(pid, RUN_TAG_VARIABLE), processes.listProcesses()]);
  return {
    process: info,
    ancestry,
    endRefusal,
    closeRefusal,
    cwd: extras?.cwd ?? null,
    cwdUnreadableReason: extras ? extras.cwdUnreadableReason : 'the process exited while it was read',
    environmentTag,
    // A child started after its parent: an older process with this ppid is a reused pid's orphan.
    children: everyone
      .filter((p) => p.ppid === pid && p.pid !== pid && p.startedAtMs >= info.startedAtMs)
      .map((p) => ({ pid: p.pid, name: p.name, startedAtMs: p.startedAtMs })),
    handleCount: extras?.handleCount ?? null,
    run: membershipOf(pid, info.startedAtMs),
    holdings: held.map((h) => {
      const fresh = h.handle ? extras?.handles[h.handle] : undefined;
      return {
        kind: h.kind,
        path: h.path,
        watchedDir: h.watchedDir,
        deleted: h.deleted,
        handle: h.handle,
        access: fresh?.access ?? h.access ?? null,
        locks: fresh?.locks ?? [],
        ...shareModeOf(source.platform, h),
      };
    }),
  };
}

/** SIGTERM to a process the user saw (`facts` read just before); a readable refusal otherwise. */
export function endProcess(facts: ProcessFacts | null, pid: number, startedAtMs: number): void {
  if (!facts || !isSameProcess(facts.info, startedAtMs)) throw new BadInputError(`process ${pid} has already exited`);
  if (facts.endRefusal) throw new BadInputError(`holdwatch will not end process ${pid}: ${facts.endRefusal}`);
  try {
    process.kill(pid, 'SIGTERM');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') throw new BadInputError(`process ${pid} has already exited`);
    if (code === 'EPERM') throw new BadInputError(`not allowed to end process ${pid}: it belongs to another user; end it as that user or as administrator`);
    throw error;
  }
}
