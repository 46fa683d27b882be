// The processes that held nothing under the watched dirs at their last walk, with what they would
// need to change to hold something there without opening it: their fd count (a fd received over a
// socket or dup'ed), cwd and root (chdir, chroot). Opening something under the dirs is the change
// feed's to report (inotify on the whole tree): after a quiet spell, a whole-system scan that asks
// for it (idleCheck) walks such a process only when one of these moved: three calls in place of its
// fd links and its maps. The fd count is the size of /proc/<pid>/fd since Linux 6.2; before, it is 0
// for every process, and nothing is remembered (every process is walked).
import { PidMemory } from './pid-memory.js';
import type { MatchDir } from './fd-walk.js';
import type { ProcReader } from './proc-reader.js';

export class QuietProcesses extends PidMemory<string> {
  private dirsKey = '';
  private fdCountsKnown: boolean | undefined;

  /** What is remembered was quiet about these dirs: other dirs start from nothing. */
  useDirs(dirs: readonly MatchDir[]): void {
    const key = dirs.map((d) => d.matchPrefix).join('\0');
    if (key === this.dirsKey) return;
    this.dirsKey = key;
    this.byPid.clear();
  }

  /** Whether `pid` was quiet and nothing it would need to change has: then its walk can be skipped. */
  isStillQuiet(pid: number, reader: ProcReader): boolean {
    const before = this.byPid.get(pid);
    return before !== undefined && before === this.signature(pid, reader);
  }

  /** `pid` was just walked and holds nothing under the dirs. Read after its walk: a chdir in between is left to the next thorough scan. */
  remember(pid: number, reader: ProcReader): void {
    this.fdCountsKnown ??= (reader.fdCount(process.pid) ?? 0) > 0;
    if (!this.fdCountsKnown) return;
    const signature = this.signature(pid, reader);
    if (signature === null) this.byPid.delete(pid);
    else this.byPid.set(pid, signature);
  }

  private signature(pid: number, reader: ProcReader): string | null {
    const fds = reader.fdCount(pid);
    if (fds === null) return null;
    const cwd = reader.readLink(`/proc/${pid}/cwd`);
    const root = reader.readLink(`/proc/${pid}/root`);
    return cwd === null || root === null ? null : `${fds}\0${cwd}\0${root}`;
  }
}
