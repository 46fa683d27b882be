// The Linux change feed against real processes: opens under the watched tree (dirs made later too),
// processes that start and end, and never a handle of its own under the dir.
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LinuxChangeFeed } from './linux-change-feed.js';
import { LinuxHolderSource } from './linux-holder-source.js';
import { killAllHolders, pythonOpener, stopHolder } from '../../tests/support/holders.js';

const feeds: LinuxChangeFeed[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await killAllHolders();
  for (const feed of feeds.splice(0)) feed.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hw-feed-'));
  dirs.push(dir);
  return dir;
}

function openFeed(dir: string): LinuxChangeFeed {
  const feed = LinuxChangeFeed.open([dir]);
  if (!feed) throw new Error('no inotify here');
  feeds.push(feed);
  return feed;
}

describe('LinuxChangeFeed', () => {
  it('reports an open by a process that was already running, in a dir that existed and in one made later', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'old', 'deeper'), { recursive: true });
    const opener = await pythonOpener();
    const feed = openFeed(dir);
    expect(feed.take().underDirs).toBe(false);

    await opener.open(join(dir, 'old', 'deeper', 'a.txt'));
    expect(feed.take().underDirs).toBe(true);
    expect(feed.take().underDirs).toBe(false);

    // Made in one go before the feed looks: the dirs under the new one are found by listing it.
    mkdirSync(join(dir, 'new', 'b', 'c'), { recursive: true });
    expect(feed.take().underDirs).toBe(true);
    expect(feed.take().underDirs).toBe(false);
    await opener.open(join(dir, 'new', 'b', 'c', 'late.txt'));
    expect(feed.take().underDirs).toBe(true);
    expect(feed.coverage).toEqual({ watchedDirs: 6, partial: false });
  });

  it('names processes that started and ended since the last look', async () => {
    const feed = openFeed(scratch());
    feed.take();
    const opener = await pythonOpener();
    expect(feed.take().started).toContain(opener.pid);
    await stopHolder(opener);
    expect(feed.take().ended).toContain(opener.pid);
  });

  it('holds nothing under the dir, and its removal goes on and is reported', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'sub', 'subsub'), { recursive: true });
    const feed = openFeed(dir);
    expect(feed.coverage.watchedDirs).toBe(3);
    const ownLinks = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return []; // the readdir's own fd, closed by now
      }
    });
    expect(ownLinks.filter((link) => link.startsWith(dir))).toEqual([]);
    expect(ownLinks).toContain('anon_inode:inotify');
    const source = new LinuxHolderSource();
    try {
      const watchDir = await source.resolveWatchDir(dir);
      const { holders } = await source.scan({ dirs: [watchDir] });
      expect(holders.filter((h) => h.pid === process.pid)).toEqual([]);
    } finally {
      await source.dispose();
    }
    rmSync(dir, { recursive: true });
    expect(feed.take().underDirs).toBe(true);
    expect(feed.coverage).toEqual({ watchedDirs: 0, partial: true });
  });

  it('watches a removed dir again once it is made again', async () => {
    const dir = scratch();
    const opener = await pythonOpener();
    const feed = openFeed(dir);
    rmSync(dir, { recursive: true });
    feed.take();
    expect(feed.take().underDirs).toBe(false);
    mkdirSync(join(dir, 'sub'), { recursive: true });
    expect(feed.take().underDirs).toBe(true);
    expect(feed.coverage).toEqual({ watchedDirs: 2, partial: false });
    await opener.open(join(dir, 'sub', 'back.txt'));
    expect(feed.take().underDirs).toBe(true);
  });

  it('leaves dirs over its limit to the scans, and says so', async () => {
    const dir = scratch();
    for (const name of ['a', 'b', 'c']) mkdirSync(join(dir, name));
    const { InotifyTree } = await import('./inotify-tree.js');
    const tree = InotifyTree.open([dir], 2)!;
    try {
      expect(tree.watchedDirs).toBe(2);
      expect(tree.partial).toBe(true);
    } finally {
      tree.close();
    }
  });
});
