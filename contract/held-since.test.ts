import { describe, expect, it } from 'vitest';
import { heldSinceMs } from './held-since.js';
import type { Attribution } from './runs.js';

const stack = (kind: 'open' | 'spawn', atMs: number): Attribution['openStack'] => ({
  found: true,
  matchedBy: 'fd',
  viaPid: null,
  stack: { kind, runtime: 'node', pid: 1, atMs, api: 'fs.openSync', path: '/w/a.log', fd: 3, argv: null, childPid: null, frames: [] },
});

describe('heldSinceMs', () => {
  const firstSeenAt = new Date(10_000).toISOString();

  it('is the recorded open when a poll met the handle later', () => {
    expect(heldSinceMs({ firstSeenAt, openStack: stack('open', 7_500) })).toBe(7_500);
  });

  it('is the first sighting without an open record, or when the record is not an open', () => {
    expect(heldSinceMs({ firstSeenAt })).toBe(10_000);
    expect(heldSinceMs({ firstSeenAt, openStack: { found: false, reason: 'no probe' } })).toBe(10_000);
    expect(heldSinceMs({ firstSeenAt, openStack: stack('spawn', 7_500) })).toBe(10_000);
  });
});
