// A watch's change feed on Linux (core/platform.ts ChangeFeed): inotify on the watched trees, and the
// process list. Read at the watch's fast pace; while nothing happens each look costs one read of the
// inotify fd (EAGAIN) and one of /proc/loadavg.
import type { ChangeFeed, ChangeNews } from '../../core/platform.js';
import { InotifyTree } from './inotify-tree.js';
import { ProcessListChanges } from './process-list-changes.js';

export class LinuxChangeFeed implements ChangeFeed {
  private constructor(
    private readonly tree: InotifyTree,
    private readonly processes: ProcessListChanges,
  ) {}

  /** Null where inotify cannot be had: the watch then scans at its fixed pace, as without a feed. */
  static open(dirs: readonly string[]): LinuxChangeFeed | null {
    const tree = InotifyTree.open(dirs);
    if (!tree) return null;
    try {
      return new LinuxChangeFeed(tree, new ProcessListChanges());
    } catch (error) {
      tree.close();
      throw error;
    }
  }

  /** Dirs under inotify watch, and whether some are left to the scans (too many, the user's limit, a root removed). */
  get coverage(): { watchedDirs: number; partial: boolean } {
    return { watchedDirs: this.tree.watchedDirs, partial: !this.tree.coversTree };
  }

  get coversTree(): boolean {
    return this.tree.coversTree;
  }

  take(): ChangeNews {
    return { underDirs: this.tree.takeActivity(), ...this.processes.take() };
  }

  dispose(): void {
    this.tree.close();
  }
}
