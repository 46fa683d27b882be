// node --test: one FileHandle left to the garbage collector, one never closed, one closed (the control).
// Run: EXAMPLE_DIR=/tmp/x holdwatch run --watch /tmp/x -- node --expose-gc --test examples/node-gc-closed/
// Node closes a collected FileHandle itself ("Closing file descriptor N on garbage collection"), so the
// suite passes; holdwatch reports that file as closed-by-gc with this test and the open line below.
// --expose-gc and the suite's own gc(), awaited until Node's warning, make the close come inside its
// test, every run.
import { mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';

const dir = process.env.EXAMPLE_DIR;
mkdirSync(dir, { recursive: true });

async function appendLine(name) {
  const handle = await open(join(dir, name), 'a'); // leak: collected (no close: the collector closes it)
  await handle.write('line\n');
}

test('a FileHandle left to the collector', async () => {
  await appendLine('collected.log');
  let closedByNode = false; // Node's warning "Closing file descriptor N on garbage collection" says so
  process.once('warning', () => (closedByNode = true));
  // A collection until Node has closed it: the handle may still be reachable from a settled promise
  // at the first one. Node closes the fd from the native side, after the collection.
  while (!closedByNode) {
    globalThis.gc();
    await nextTurn();
  }
});

test('a FileHandle never closed', async () => {
  globalThis.kept = await open(join(dir, 'kept.log'), 'a'); // leak: kept (referenced to the end)
});

test('a FileHandle closed by the code', async () => {
  const handle = await open(join(dir, 'closed.log'), 'a');
  await handle.close();
  globalThis.gc();
  await nextTurn();
});
