// A suite that fills its own store directory and never cleans it: every later run starts slower.
// holdwatch lists what each test left behind.
// Run: holdwatch run --watch "$EXAMPLE_DIR" -- node --test examples/node-store/store.test.mjs (Node 22+ takes files or globs, not a folder)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const store = join(process.env.EXAMPLE_DIR, 'store');

// Each test works a little while before writing, as real ones do; holdwatch places files by time.
const settle = () => new Promise((r) => setTimeout(r, 100));

test('caches thumbnails', async () => {
  await settle();
  mkdirSync(join(store, 'thumbs'), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(store, 'thumbs', `t${i}.png`), 'png');
  await new Promise((r) => setTimeout(r, 150));
});

test('writes a session db', async () => {
  await settle();
  writeFileSync(join(store, 'session.db'), 'db');
  await new Promise((r) => setTimeout(r, 150));
});

test('cleans up after itself', async () => {
  const scratch = join(store, 'scratch.tmp');
  writeFileSync(scratch, 'x');
  const { rmSync } = await import('node:fs');
  rmSync(scratch);
});
