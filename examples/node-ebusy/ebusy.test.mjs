// A Node test suite whose teardown fails on Windows with EBUSY while every test body passes: one test
// opens a file with share mode 0 (libuv's UV_FS_O_EXLOCK) and keeps it in a module variable; the
// suite's cleanup then cannot remove the directory. On Linux the cleanup succeeds and holdwatch
// reports the handle as blocked-cleanup, with the rmSync that removed it while held: the same bug, predicted.
// Run: holdwatch run --watch "$EXAMPLE_DIR" -- node --test examples/node-ebusy/ebusy.test.mjs (Node 22+ takes files or globs, not a folder)
import { closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';

// fs.constants.UV_FS_O_EXLOCK is undefined on Windows Node 20; this is its value (share mode 0).
const EXCLUSIVE = process.platform === 'win32' ? 0x10000000 : 0;
const work = join(process.env.EXAMPLE_DIR, 'cache');
const leaked = [];

test('writes the lock file', async () => {
  mkdirSync(work, { recursive: true });
  const fd = openSync(join(work, 'cache.lock'), constants.O_CREAT | constants.O_RDWR | EXCLUSIVE);
  writeSync(fd, 'locked');
  leaked.push(fd); // the bug: never closed
  await new Promise((r) => setTimeout(r, 300));
});

test('reads the cache', async () => {
  await new Promise((r) => setTimeout(r, 300));
});

after(() => {
  rmSync(work, { recursive: true }); // EBUSY on Windows while the lock file is open
  for (const fd of leaked) closeSync(fd);
});
