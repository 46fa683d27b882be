// Watches directory trees with inotify and says whether anything happened in them: a file or dir
// opened (IN_OPEN: by any process, so a holder appearing), a last close, a create, a delete, a move.
// An inotify watch is a mark on the inode, not an open file: nothing under the dir is held, and its
// removal goes on (IN_IGNORED). fanotify would see the whole mount but needs CAP_SYS_ADMIN for that;
// users are not root. inotify is not recursive: every dir gets a watch, up to MAX_WATCHED_DIRS (the
// per-user limit, fs.inotify.max_user_watches, is shared with editors and file managers); the rest is
// left to the watch's full scans. What inotify never reports: chdir, fork (an inherited fd), dup,
// fds passed over a socket. Processes that start are the process list's to report
// (process-list-changes.ts); the rest waits for the next full scan.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EAGAIN, loadInotifyCalls, type InotifyCalls } from './libc.js';

const IN_CLOSE_WRITE = 0x8;
const IN_CLOSE_NOWRITE = 0x10;
const IN_OPEN = 0x20;
const IN_MOVED_FROM = 0x40;
const IN_MOVED_TO = 0x80;
const IN_CREATE = 0x100;
const IN_DELETE = 0x200;
const IN_DELETE_SELF = 0x400;
const IN_MOVE_SELF = 0x800;
const IN_Q_OVERFLOW = 0x4000;
const IN_IGNORED = 0x8000;
const IN_ONLYDIR = 0x1000000;
const IN_DONT_FOLLOW = 0x2000000;
const IN_ISDIR = 0x40000000;
const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;
const ENOSPC = 28;

// Not IN_ACCESS or IN_MODIFY: reads and writes of a file already open change no holder, and fire per call.
const MASK =
  IN_OPEN |
  IN_CLOSE_WRITE |
  IN_CLOSE_NOWRITE |
  IN_CREATE |
  IN_DELETE |
  IN_MOVED_FROM |
  IN_MOVED_TO |
  IN_DELETE_SELF |
  IN_MOVE_SELF |
  IN_ONLYDIR |
  IN_DONT_FOLLOW;

/** Enough for every dir of a test suite's temp tree; a home dir's node_modules is left to the scans. */
export const MAX_WATCHED_DIRS = 2048;

// struct inotify_event { int wd; uint32_t mask; uint32_t cookie; uint32_t len; char name[len]; }
const EVENT_HEADER_BYTES = 16;

export class InotifyTree {
  private readonly pathOfWatch = new Map<number, string>();
  private readonly watchOfPath = new Map<string, number>();
  private readonly buffer = Buffer.alloc(64 * 1024);
  private closed = false;
  /** Dirs left unwatched (over MAX_WATCHED_DIRS, or the user's limit reached): their opens are only scanned. */
  partial = false;

  private constructor(
    private readonly calls: InotifyCalls,
    private readonly fd: number,
    private readonly roots: readonly string[],
    private readonly maxDirs: number,
  ) {}

  /**
   * Watches every dir under `roots`; null where inotify cannot be had (no koffi for this machine, the
   * user's instance limit reached). Lists the trees, which opens each dir for the time of a readdir:
   * the caller does it before its first scan, so no scan of its own meets those fds.
   */
  static open(roots: readonly string[], maxDirs = MAX_WATCHED_DIRS): InotifyTree | null {
    const calls = loadInotifyCalls();
    if (!calls) return null;
    const fd = calls.init1(IN_NONBLOCK | IN_CLOEXEC) as number;
    if (fd < 0) return null;
    const tree = new InotifyTree(calls, fd, roots, maxDirs);
    try {
      tree.watchTrees(roots);
      tree.drain(); // the events of its own listing
    } catch (error) {
      tree.close();
      throw error;
    }
    return tree;
  }

  /** Watched dirs now. */
  get watchedDirs(): number {
    return this.pathOfWatch.size;
  }

  /** Every dir under the roots is watched: none left over the limit, no root missing (removed, not made again yet). */
  get coversTree(): boolean {
    return !this.partial && this.roots.every((root) => this.watchOfPath.has(root));
  }

  /**
   * Whether anything happened under the trees since the last call. Dirs made or moved in meanwhile are
   * watched (and listed) here; the events of that listing are read too, and count with the ones that
   * caused it (the caller scans after a true anyway).
   */
  takeActivity(): boolean {
    if (this.closed) return false;
    // A root removed (a test's tmpdir) may be made again: one failed inotify_add_watch a look until then.
    const missing = this.roots.filter((root) => !this.watchOfPath.has(root));
    if (missing.length > 0) this.watchTrees(missing);
    let activity = missing.some((root) => this.watchOfPath.has(root));
    for (;;) {
      const newDirs = this.drain();
      if (newDirs === null) return activity;
      activity = true;
      if (newDirs.length === 0) return activity;
      this.watchTrees(newDirs);
    }
  }

  /** Idempotent: closing the inotify fd removes every watch. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.calls.close(this.fd);
  }

  /**
   * Reads every queued event: null when there was none; else the dirs that appeared (to watch).
   * An overflowed queue lost events, dirs made among them too: the roots are listed again.
   */
  private drain(): string[] | null {
    let any = false;
    const newDirs: string[] = [];
    for (;;) {
      const length = Number(this.calls.read(this.fd, this.buffer, this.buffer.length));
      if (length < 0) {
        if (this.calls.errno() === EAGAIN) break;
        throw new Error(`inotify read failed (errno ${this.calls.errno()})`);
      }
      if (length === 0) break;
      any = true;
      for (let at = 0; at + EVENT_HEADER_BYTES <= length;) {
        const wd = this.buffer.readInt32LE(at);
        const mask = this.buffer.readUInt32LE(at + 4);
        const nameBytes = this.buffer.readUInt32LE(at + 12);
        const name = this.buffer.toString('utf8', at + EVENT_HEADER_BYTES, at + EVENT_HEADER_BYTES + nameBytes).replace(/\0+$/, '');
        at += EVENT_HEADER_BYTES + nameBytes;
        this.onEvent(wd, mask, name, newDirs);
      }
    }
    return any ? newDirs : null;
  }

  private onEvent(wd: number, mask: number, name: string, newDirs: string[]): void {
    if (mask & IN_Q_OVERFLOW) {
      newDirs.push(...new Set(this.pathOfWatch.values()));
      return;
    }
    if (mask & IN_IGNORED) {
      const path = this.pathOfWatch.get(wd);
      this.pathOfWatch.delete(wd);
      if (path !== undefined && this.watchOfPath.get(path) === wd) this.watchOfPath.delete(path);
      return;
    }
    const parent = this.pathOfWatch.get(wd);
    if (parent === undefined || !(mask & IN_ISDIR) || name === '') return;
    const path = join(parent, name);
    if (mask & (IN_CREATE | IN_MOVED_TO)) newDirs.push(path);
    // Moved away: its watch would report another tree (a move within the trees comes back as IN_MOVED_TO).
    if (mask & IN_MOVED_FROM) this.unwatch(path);
  }

  /** Watches each dir and, breadth first, the dirs under it, while there is room. */
  private watchTrees(roots: readonly string[]): void {
    const queue = [...roots];
    for (let i = 0; i < queue.length; i++) {
      const dir = queue[i]!;
      if (!this.watch(dir)) continue;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // removed meanwhile, or unreadable
      }
      for (const entry of entries) if (entry.isDirectory()) queue.push(join(dir, entry.name));
    }
  }

  /** False when the dir is not watched: gone, not a dir, or no room left. */
  private watch(dir: string): boolean {
    if (this.watchOfPath.has(dir)) return true;
    if (this.pathOfWatch.size >= this.maxDirs) {
      this.partial = true;
      return false;
    }
    const wd = this.calls.addWatch(this.fd, dir, MASK) as number;
    if (wd < 0) {
      // ENOSPC: the user's watch limit; the others (ENOENT, EACCES, ENOTDIR) leave nothing to watch.
      if (this.calls.errno() === ENOSPC) this.partial = true;
      return false;
    }
    // One inode reached by two paths (a dir moved within the trees) keeps its descriptor: the new path wins.
    const before = this.pathOfWatch.get(wd);
    if (before !== undefined) this.watchOfPath.delete(before);
    this.pathOfWatch.set(wd, dir);
    this.watchOfPath.set(dir, wd);
    return true;
  }

  private unwatch(dir: string): void {
    const wd = this.watchOfPath.get(dir);
    if (wd === undefined) return;
    // Its IN_IGNORED comes with the next read and forgets it; until then it is not listed under this path.
    this.watchOfPath.delete(dir);
    this.calls.rmWatch(this.fd, wd);
  }
}
