// The Node probe's self-inventory in this very process, on real descriptors: what it skips reading
// again (a descriptor with no path whose inode is unchanged; the whole directory while the count of
// open descriptors and each one's identity hold) must never hide a descriptor that now names a file
// under the watched dir.
import * as fs from 'node:fs';
import { closeSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface Held {
  fd: number;
  path: string;
  deleted: boolean;
}
type FsCalls = Pick<typeof fs, 'readdirSync' | 'readlinkSync' | 'fstatSync' | 'statSync'>;
const { SelfInventory } = createRequire(import.meta.url)('../../probes/node/self-inventory.cjs') as {
  SelfInventory: new (prefixes: string[], calls?: FsCalls) => { held(skip: number[]): Held[] | null; heldQuickly(skip: number[]): Held[] | null };
};

const root = mkdtempSync(join(tmpdir(), 'hw-self-inventory-'));
const watched = join(root, 'watched');
const outside = join(root, 'outside');
mkdirSync(watched);
mkdirSync(outside);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const pathsOf = (held: Held[] | null) => held?.map((h) => h.path).sort();

describe.runIf(process.platform === 'linux')('Node self-inventory', () => {
  it('lists a file opened under the watched dir in place of a socket the last listing found', async () => {
    // The socket has no path: the listing after it checks its inode, not its link. Closed, and a file
    // opened under the dir (at its number, the lowest free): the count is as before, the inode is not.
    const inventory = new SelfInventory([watched + '/']);
    const server = createServer();
    await listen(server);
    expect(inventory.held([])).toEqual([]);
    expect(inventory.held([])).toEqual([]);
    await close(server);
    const file = join(watched, 'after-socket.db');
    const fd = openSync(file, 'w');
    try {
      expect(inventory.held([])).toEqual([{ fd, path: file, deleted: false }]);
    } finally {
      closeSync(fd);
    }
    expect(inventory.held([])).toEqual([]);
  });

  it('at a delete, reads only numbers new since and descriptors with a path; a socket’s number taken over waits for the end', async () => {
    const inventory = new SelfInventory([watched + '/']);
    const server = createServer();
    await listen(server);
    const away = join(outside, 'quick-moving.txt');
    writeFileSync(away, 'x');
    const moving = openSync(away, 'r');
    const opened: number[] = [];
    try {
      expect(inventory.held([])).toEqual([]);
      const fresh = join(watched, 'quick-new.txt');
      opened.push(openSync(fresh, 'w'));
      expect(inventory.heldQuickly([])).toEqual([{ fd: opened[0], path: fresh, deleted: false }]);
      // A descriptor with a path is read again: renamed in, it is held there.
      const inside = join(watched, 'quick-moving.txt');
      renameSync(away, inside);
      expect(pathsOf(inventory.heldQuickly([]))).toEqual([inside, fresh].sort());
      renameSync(inside, away);
      // The socket's number, taken over by a file under the dir: not read here, but at the full listing.
      await close(server);
      const takeover = join(watched, 'quick-takeover.db');
      opened.push(openSync(takeover, 'w'));
      expect(pathsOf(inventory.heldQuickly([]))).toEqual([fresh]);
      expect(pathsOf(inventory.held([]))).toEqual([fresh, takeover].sort());
    } finally {
      for (const fd of opened) closeSync(fd);
      closeSync(moving);
    }
  });

  it('lists a file held outside once it is renamed in, and drops it once renamed out', () => {
    const inventory = new SelfInventory([watched + '/']);
    const away = join(outside, 'moving.txt');
    const inside = join(watched, 'moving.txt');
    writeFileSync(away, 'x');
    const fd = openSync(away, 'r');
    try {
      expect(inventory.held([])).toEqual([]);
      expect(inventory.held([])).toEqual([]);
      renameSync(away, inside);
      expect(pathsOf(inventory.held([]))).toEqual([inside]);
      renameSync(inside, away);
      expect(inventory.held([])).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it('names an unlinked file as deleted, and skips the descriptors it is told are the probe’s', () => {
    const inventory = new SelfInventory([watched + '/']);
    const kept = join(watched, 'kept.txt');
    const own = join(watched, 'own.log');
    const fd = openSync(kept, 'w');
    const ownFd = openSync(own, 'w');
    try {
      expect(inventory.held([ownFd])).toEqual([{ fd, path: kept, deleted: false }]);
      rmSync(kept);
      expect(inventory.held([ownFd])).toEqual([{ fd, path: kept, deleted: true }]);
    } finally {
      closeSync(fd);
      closeSync(ownFd);
    }
  });

  it('reads the link of a socket or of /dev/null once, while its descriptor holds the same inode', async () => {
    // The real fs calls, with the links read counted: what the listings after the first skip.
    const server = createServer();
    await listen(server);
    const devNull = openSync('/dev/null', 'r');
    const socketFd = (server as unknown as { _handle: { fd: number } })._handle.fd;
    const read: number[] = [];
    const counting: FsCalls = {
      ...fs,
      readlinkSync: ((link: string) => {
        read.push(Number(link.split('/').at(-1)));
        return fs.readlinkSync(link);
      }) as typeof fs.readlinkSync,
    };
    try {
      const inventory = new SelfInventory([watched + '/'], counting);
      for (let i = 0; i < 3; i++) expect(inventory.held([])).toEqual([]);
      expect(read.filter((fd) => fd === devNull)).toEqual([devNull]);
      expect(read.filter((fd) => fd === socketFd)).toEqual([socketFd]);
    } finally {
      closeSync(devNull);
      await close(server);
    }
  });
});
