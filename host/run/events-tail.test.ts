// The events tail on a real file: what a probe appends is read by drain() either way; only a tail that
// wakes on change holds an inotify watch (Linux shows each one in /proc/self/fdinfo).
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventsTail } from './events-tail.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-events-tail-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The inotify watches this process holds, over all its inotify fds. */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // the fd of the readdir itself, closed by now
    }
    if (target === 'anon_inode:inotify')
      watches += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
  }
  return watches;
}

describe.skipIf(process.platform !== 'linux')('EventsTail', () => {
  it('without wakeOnChange holds no inotify watch, and drain() reads what was appended', () => {
    const read: string[] = [];
    const before = inotifyWatches();
    const tail = new EventsTail(join(dir, 'events.jsonl'), (text) => read.push(text), { wakeOnChange: false });
    try {
      expect(inotifyWatches()).toBe(before);
      appendFileSync(tail.path, '{"a":1}\n');
      tail.drain();
      expect(read.join('')).toBe('{"a":1}\n');
    } finally {
      tail.close();
    }
  });

  it('waking on change holds one inotify watch until closed', () => {
    const before = inotifyWatches();
    const tail = new EventsTail(join(dir, 'events.jsonl'), () => {});
    expect(inotifyWatches()).toBe(before + 1);
    tail.close();
    expect(inotifyWatches()).toBe(before);
  });
});
