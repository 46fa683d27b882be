import { describe, expect, it } from 'vitest';
import { withDeadline } from './clock.js';
import { ManualClock } from '../tests/support/manual-clock.js';

describe('withDeadline', () => {
  it('passes the value through and leaves no timer behind', async () => {
    const clock = new ManualClock(0);
    await expect(withDeadline(clock, Promise.resolve(7), 1000, 'the scan')).resolves.toBe(7);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('rejects, naming the step, when the work never settles', async () => {
    const clock = new ManualClock(0);
    const stalled = withDeadline(clock, new Promise<number>(() => {}), 60_000, 'the final scan');
    clock.advance(59_999);
    clock.advance(1);
    await expect(stalled).rejects.toThrow('the final scan did not finish within 60 s; going on without it');
  });
});
