// The Node probe's listing at a test's start, in this very process on real descriptors: right after the
// test before ended, in the same turn of the event loop, one stat of the descriptor count stands for
// it; a descriptor opened in between still changes that count, and is listed as opened outside any test.
import * as fs from 'node:fs';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

type FsCalls = Pick<typeof fs, 'readdirSync' | 'readlinkSync' | 'fstatSync' | 'statSync'>;
interface QueuedRecord {
  kind: string;
  api?: string;
  path?: string;
  test?: string | null;
  listed?: boolean;
}
const require = createRequire(import.meta.url);
const { SelfInventory } = require('../../probes/node/self-inventory.cjs') as { SelfInventory: new (prefixes: string[], calls?: FsCalls) => unknown };
const { state } = require('../../probes/node/probe-state.cjs') as { state: { inventory: unknown; logFd: number; queue: QueuedRecord[] } };
const { onTestStarted, onTestEnded } = require('../../probes/node/test-boundaries.cjs') as {
  onTestStarted: (name: string) => void;
  onTestEnded: (name: string, outcome?: string) => void;
};

const root = mkdtempSync(join(tmpdir(), 'hw-test-start-listing-'));
const watched = join(root, 'watched');
mkdirSync(watched);
state.logFd = openSync(join(root, 'probe.jsonl'), 'a');
afterAll(() => {
  closeSync(state.logFd);
  rmSync(root, { recursive: true, force: true });
});

/** The real fs calls, with each descriptor's fstat counted: a full listing checks every one it knows. */
let fstats = 0;
const counting: FsCalls = {
  ...fs,
  fstatSync: ((fd: number) => {
    fstats++;
    return fs.fstatSync(fd);
  }) as typeof fs.fstatSync,
};
state.inventory = new SelfInventory([watched + '/'], counting);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const fstatsDuring = (step: () => void) => {
  const before = fstats;
  step();
  return fstats - before;
};

/** Linux 6.2+ gives the count of open descriptors as /proc/self/fd's size: the one stat that stands for a listing. */
const kernelCountsFds = process.platform === 'linux' && fs.statSync('/proc/self/fd').size > 0;

describe.runIf(kernelCountsFds)('Node probe: the listing at a test start', () => {
  it('is one stat right after the test before ended in this turn, a full listing in a later turn', async () => {
    onTestEnded('first');
    expect(fstatsDuring(() => onTestStarted('second'))).toBe(0);
    onTestEnded('second');
    await nextTurn();
    expect(fstatsDuring(() => onTestStarted('third'))).toBeGreaterThan(0);
    onTestEnded('third');
  });

  it('lists a file opened between the two as opened outside any test, whatever the turn', async () => {
    await nextTurn();
    onTestEnded('before');
    const file = join(watched, 'between.db');
    const fd = openSync(file, 'w'); // the probe wraps no fs here: a native open, as an addon's
    try {
      state.queue.length = 0;
      onTestStarted('after');
      const listed = state.queue.filter((r) => r.kind === 'open' && r.listed);
      expect(listed).toEqual([expect.objectContaining({ api: 'native', path: file, test: null, listed: true })]);
    } finally {
      closeSync(fd);
    }
    onTestEnded('after');
  });
});
