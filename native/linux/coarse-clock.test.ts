import { lstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coarseClockTickMs } from './coarse-clock.js';

describe.runIf(process.platform === 'linux')('the filesystem’s coarse clock', () => {
  // Date.now(), not performance.now(): the latter drifts from the wall clock file times are stamped in.
  it('a birth time reads no later than the write, and may read before it began', () => {
    const tickMs = coarseClockTickMs();
    expect(tickMs).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'hw-btime-'));
    try {
      const early: number[] = [];
      for (let i = 0; i < 200; i++) {
        const beforeMs = Date.now();
        writeFileSync(join(dir, `f${i}`), '');
        const afterMs = Date.now() + 1; // Date.now() truncates to the millisecond
        const { birthtimeMs } = lstatSync(join(dir, `f${i}`));
        if (birthtimeMs === 0) return; // a filesystem without birth times
        expect(birthtimeMs).toBeLessThanOrEqual(afterMs);
        // A tick's interrupt may come late (in a VM, under load): a few ticks bound it here.
        expect(birthtimeMs).toBeGreaterThan(beforeMs - 5 * tickMs);
        if (birthtimeMs < beforeMs) early.push(beforeMs - birthtimeMs);
      }
      // Births read before the write began: the stamp is the last tick's, not the moment. (On a quiet
      // machine most do; under load a preemption between Date.now() and the write hides some.)
      expect(early.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
