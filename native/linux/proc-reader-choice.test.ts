// How a thread's walks read /proc: with libc from the first (a one-shot scan's only walk), which stats
// each matching fd as it reads its link; later ones (a poller's) leave the stats to the kind cache.
import { describe, expect, it, vi } from 'vitest';

/** procReaderForWalk as a thread that has not walked yet has it. */
async function freshChoice() {
  vi.resetModules();
  return (await import('./proc-reader.js')).procReaderForWalk;
}

describe('procReaderForWalk', () => {
  it('reads a first walk with libc, statting as it reads, however few fds there are; a later walk with libc, leaving stats to the kind cache', async () => {
    const procReaderForWalk = await freshChoice();
    expect(procReaderForWalk()).toMatchObject({ reader: { name: 'libc' }, withFacts: true });
    expect(procReaderForWalk()).toMatchObject({ reader: { name: 'libc' }, withFacts: false });
  });
});
