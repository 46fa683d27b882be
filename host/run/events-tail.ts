// Follows the probes' events file (HOLDWATCH_EVENTS) as they append to it: inotify through fs.watch
// for promptness, plus a slow poll because fs.watch may miss events on some filesystems. A reader that
// drains it itself whenever order matters (a supervised run: before each boundary and each batch of
// output) keeps only the slow poll: each appended line would otherwise wake holdwatch once more, on a
// loaded machine a CPU slice taken from the tests.
import { closeSync, constants, openSync, readSync, watch, type FSWatcher } from 'node:fs';
import { writePrivateFile } from '../private-files.js';

export class EventsTail {
  private fd: number | null;
  private offset = 0;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly buffer = Buffer.alloc(64 * 1024);
  private readonly decoder = new TextDecoder();

  /**
   * `create: false` for a file another process owns (a terminal run's journal): opened to read only.
   * `wakeOnChange: false`: read on drain() and the slow poll only.
   */
  constructor(
    readonly path: string,
    private readonly onText: (text: string) => void,
    { create = true, wakeOnChange = true }: { create?: boolean; wakeOnChange?: boolean } = {},
  ) {
    if (create) writePrivateFile(path, '', 'a');
    // Not through a link: a journal another process owns is read only where it really is.
    this.fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      if (wakeOnChange) this.watcher = watch(path, () => this.drain());
    } catch (error) {
      // No object to close() would come back to the caller: the fd must not outlive this throw.
      closeSync(this.fd);
      this.fd = null;
      throw error;
    }
    this.timer = setInterval(() => this.drain(), 100);
    this.timer.unref();
  }

  /** Reads everything appended since the last call. */
  drain(): void {
    while (this.fd !== null) {
      // onText may close the tail (a followed journal's last entry): checked before each read.
      const n = readSync(this.fd, this.buffer, 0, this.buffer.length, this.offset);
      if (n <= 0) break;
      this.offset += n;
      this.onText(this.decoder.decode(this.buffer.subarray(0, n), { stream: true }));
    }
  }

  close(): void {
    this.drain();
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
