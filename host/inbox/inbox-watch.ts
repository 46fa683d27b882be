// Notices announce files as probes create them in the inbox: fs.watch for promptness, plus a slow poll
// because fs.watch may miss events on some filesystems. Each file is reported once, when its header is
// complete; files already there when watching starts count as new (their runs are still going).
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { readAnnouncement, type Announcement } from './inbox-announce.js';
import type { Inbox } from './inbox-dir.js';

export type OnAnnounce = (path: string, announcement: Announcement) => void;

export class InboxWatcher {
  private readonly settled = new Set<string>();
  private watcher: FSWatcher | null;
  private timer: NodeJS.Timeout | null;

  constructor(
    private readonly inbox: Inbox,
    private readonly onAnnounce: OnAnnounce,
    private readonly onInvalid: (path: string) => void,
  ) {
    this.watcher = watch(inbox.path, () => this.check());
    this.timer = setInterval(() => this.check(), 250);
    this.timer.unref();
    this.check();
  }

  /** Looks at every announce file not yet reported. */
  check(): void {
    if (this.timer === null) return;
    for (const name of this.inbox.announceFiles()) {
      if (this.settled.has(name)) continue;
      const path = join(this.inbox.path, name);
      const announcement = readAnnouncement(path);
      if (announcement === 'incomplete') continue; // the probe is writing it right now
      if (announcement === 'gone') continue;
      this.settled.add(name);
      if (announcement) this.onAnnounce(path, announcement);
      else this.onInvalid(path);
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
