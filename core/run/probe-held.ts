// A leak only the probe saw, as a holder row: the process is gone, so what a scan would have read
// (name, command line, parent) comes from the probe's own record of its process.
import type { Holder, PlatformName } from '../../contract/holders.js';
import { holderKey } from '../../contract/identity.js';
import type { JournalEntry, MemberFacts } from '../../contract/journal.js';
import type { StackLookup } from '../../contract/stacks.js';
import type { ProbeLeak } from '../stacks/probe-leaks.js';

export type ProbeHeldEntry = Extract<JournalEntry, { t: 'probe-held' }>;

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
  const { process, open } = leak;
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
    kind: 'file',
    path: open.path,
    deleted: leak.stack.unlinkedWhileOpen === true,
    // The runtime's fd as the probe saw it (on Windows a C runtime fd, not a handle value).
    handle: open.fd === null ? null : `fd ${open.fd}`,
    watchedDir: leak.watchedDir,
  };
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

/** The executable's file name, as a process list shows it: `node`, `node.exe`. */
function nameOf(executable: string, platform: PlatformName): string {
  return executable.split(platform === 'win32' ? /[\\/]/ : /\//).pop() ?? executable;
}
