// The processes whose maps held nothing under the watched dirs at their last read, with the size and
// data size of their address space then (/proc/<pid>/statm, read before the maps). Reading the maps is
// the dear part of walking a process (the kernel writes out every mapping, ~120 lines for a Python
// interpreter): a run's focus polls walk each of its processes every 100 ms, thousands of forked test
// workers among them. A file mapped since moves the size, so such a process's maps are read again only
// when it moved; thorough full scans read every process's maps whatever is remembered, which bounds
// what this can miss (a mapping swapped for another of the very same size) to one thorough period.
import { PidMemory } from './pid-memory.js';
import type { MatchDir } from './fd-walk.js';
import { ReadBuffer, type ProcReader } from './proc-reader.js';

const statmBuffer = new ReadBuffer(256);

export class MapsMemo extends PidMemory<string> {
  private dirsKey = '';

  /** What is remembered was empty of these dirs: other dirs start from nothing. */
  useDirs(dirs: readonly MatchDir[]): void {
    const key = dirs.map((d) => d.matchPrefix).join('\0');
    if (key === this.dirsKey) return;
    this.dirsKey = key;
    this.byPid.clear();
  }

  /** The address space's size and data size now; null when unreadable (the process is gone). */
  signature(pid: number, reader: ProcReader): string | null {
    const length = reader.readFile(`/proc/${pid}/statm`, statmBuffer);
    if (length === null) return null;
    const fields = statmBuffer.bytes.toString('latin1', 0, length).split(' ');
    return fields.length >= 6 ? `${fields[0]} ${fields[5]}` : null;
  }

  /** Whether `pid`'s maps held nothing under the dirs when its address space last had `signature`. */
  emptyAt(pid: number, signature: string): boolean {
    return this.byPid.get(pid) === signature;
  }

  /** `pid`'s maps, read after `signature` (null: unknown), held nothing under the dirs, or something. */
  readWith(pid: number, signature: string | null, empty: boolean): void {
    if (empty && signature !== null) this.byPid.set(pid, signature);
    else this.byPid.delete(pid);
  }
}
