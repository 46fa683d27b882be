// The two fd-link readers against one real process: the same links, the same count and the same
// errors, over names that are hard to get right (a space and a newline, bytes that are not UTF-8,
// a deleted file, a sibling dir sharing the prefix) and more fds than one getdents64 buffer holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibcFdLinks, linkPrefixes, nodeFdLinks, type FdLinkReader, type LinkPrefixes } from './fd-links.js';
import { loadLibc } from './libc.js';
import { LinkBatch, type LinkFacts } from './link-batch.js';

const HOLDER = `
import os, resource, socket, sys
root, fd_count = sys.argv[1], int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, fd_count + 100), hard))
d = os.path.join(root, "w")
keep = [open(os.path.join(d, "plain.txt"), "w"), open(os.path.join(d, "two words\\nline.txt"), "w")]
keep.append(os.open(os.fsencode(d) + b"/\\xff\\xfe.bin", os.O_CREAT | os.O_RDWR))
gone = open(os.path.join(d, "gone.txt"), "w"); os.unlink(gone.name); keep.append(gone)
keep.append(open(os.path.join(root, "w-other", "sibling.txt"), "w"))
keep += [socket.socket(), *os.pipe()]
keep += [os.open(os.path.join(d, "plain.txt"), os.O_RDONLY) for _ in range(fd_count)]
print("ready", flush=True)
sys.stdin.read()
`;

let root: string;
let child: ChildProcess;
const FDS = 3_000; // a 64 KiB getdents64 buffer holds ~2,700 entries of these names

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hw-fd-links-')));
  mkdirSync(join(root, 'w'));
  mkdirSync(join(root, 'w-other'));
  child = spawn('/usr/bin/python3', ['-c', HOLDER, root, String(FDS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
});

afterAll(() => {
  child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

function links(reader: FdLinkReader, prefixes: LinkPrefixes): { count: number; links: string[] } {
  const found: string[] = [];
  const batch = new LinkBatch();
  const count = reader.read(child.pid!, prefixes, batch);
  batch.forEach((fd, target) => found.push(`${fd} ${target}`));
  return { count, links: found.sort() };
}

const libc = () => {
  const bound = loadLibc();
  if (!bound) throw new Error('koffi or libc getdents64 did not load here');
  return new LibcFdLinks(bound);
};

describe('fd link readers', () => {
  it('libc and Node read the same links under the prefix, and the same count', () => {
    const prefixes = linkPrefixes([join(root, 'w')]);
    const byNode = links(nodeFdLinks, prefixes);
    expect(links(libc(), prefixes)).toEqual(byNode);
    expect(byNode.count).toBeGreaterThan(FDS + 8);
    const names = byNode.links.map((l) => l.slice(l.indexOf(' ') + 1));
    expect(names.filter((n) => !n.endsWith('/plain.txt')).sort()).toEqual(
      [`${root}/w/gone.txt (deleted)`, `${root}/w/two words\nline.txt`, `${root}/w/\uFFFD\uFFFD.bin`, `${root}/w-other/sibling.txt`].sort(),
    );
  });

  it('with no prefixes both pass every path target and no socket or pipe', () => {
    const byNode = links(nodeFdLinks, null);
    expect(links(libc(), null)).toEqual(byNode);
    expect(byNode.links.some((l) => l.includes('socket:') || l.includes('pipe:'))).toBe(false);
    expect(byNode.links.some((l) => l.endsWith('/w-other/sibling.txt'))).toBe(true);
  });

  it('libc with facts stats each link under the dir as it reads it, and no "<dir>-other" sibling', () => {
    const batch = new LinkBatch();
    libc().read(child.pid!, linkPrefixes([join(root, 'w')]), batch, true);
    const facts: [sibling: boolean, read: LinkFacts | null | undefined][] = [];
    batch.forEach((fd, target, read) => facts.push([target.endsWith('/w-other/sibling.txt'), read]));
    expect(facts).toHaveLength(batch.count);
    expect(facts.filter(([sibling]) => sibling)).toEqual([[true, null]]);
    // plain.txt's many read-only fds; the others opened for writing (os.O_RDWR for the undecodable name).
    expect(facts.filter(([sibling]) => !sibling).map(([, read]) => JSON.stringify(read))).toEqual(
      expect.arrayContaining([JSON.stringify({ dir: false, flags: 0 }), JSON.stringify({ dir: false, flags: 1 }), JSON.stringify({ dir: false, flags: 2 })]),
    );
    nodeFdLinks.read(child.pid!, linkPrefixes([join(root, 'w')]), batch, true);
    expect(batch.facts).toEqual([]); // Node's fs stats later, in the walk
  });

  it('a prefix holding U+FFFD (from undecodable bytes) cannot be compared as bytes: every path passes', () => {
    expect(linkPrefixes([`${root}/w/\uFFFD`])).toBeNull();
  });

  it('a batch with a target ending in " (deleted)" is marked, from both readers; read again unchanged, it is equal', () => {
    const prefixes = linkPrefixes([join(root, 'w')]);
    for (const reader of [nodeFdLinks, libc()]) {
      const first = new LinkBatch();
      const second = new LinkBatch();
      reader.read(child.pid!, prefixes, first);
      reader.read(child.pid!, prefixes, second);
      expect(first.marked).toBe(true);
      expect(second.equals(first.copy())).toBe(true);
      reader.read(child.pid!, linkPrefixes([join(root, 'w-other')]), second);
      expect(second.marked).toBe(false);
      expect(second.equals(first.copy())).toBe(false);
    }
  });

  it('a process that is gone is ENOENT from both', () => {
    const gonePid = 2 ** 22 + 1; // above pid_max's ceiling: never a live pid
    for (const reader of [nodeFdLinks, libc()]) {
      expect(() => reader.read(gonePid, null, new LinkBatch())).toThrow(expect.objectContaining({ code: 'ENOENT' }) as Error);
    }
  });
});
