import { describe, expect, it } from 'vitest';
import type { TestEvent } from '../../contract/runs.js';
import { failedTeardown } from './folded-phases.js';

const end: TestEvent = { type: 'test-end', name: 't::a', atMs: 9, outcome: 'error', inTestProcess: true };

describe('failedTeardown', () => {
  it('finds a failed teardown folded into an end, as the phase event its own line would have been', () => {
    expect(
      failedTeardown(end, [
        ['teardown', 7],
        ['teardown', 8, 'error'],
      ]),
    ).toEqual({
      type: 'phase',
      name: 't::a',
      phase: 'teardown',
      outcome: 'error',
      atMs: 8,
      inTestProcess: true,
    });
    expect(
      failedTeardown(end, [
        ['call', 7, 'failed'],
        ['teardown', 8, 'passed'],
      ]),
    ).toBeUndefined();
    expect(failedTeardown(end, undefined)).toBeUndefined();
  });

  it('is the event itself when that is a failed teardown', () => {
    const phase: TestEvent = { type: 'phase', name: 't::a', phase: 'teardown', outcome: 'failed', atMs: 8 };
    expect(failedTeardown(phase, undefined)).toBe(phase);
  });
});
