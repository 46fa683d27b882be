import { describe, expect, it } from 'vitest';
import { BoundedCalls, maxStuckCalls } from './bounded-call.js';

/** A call that completes when `finish` is called, as a pool thread's call would. */
function pending<T>() {
  let finish: (value: T) => void = () => {};
  const start = (done: (value: T) => void) => (finish = done);
  return { start, finish: (value: T) => finish(value) };
}

describe('BoundedCalls', () => {
  it('gives the value of a call that returns in time, and frees its memory then', async () => {
    const calls = new BoundedCalls(1000, 2);
    const released: string[] = [];
    const call = pending<string>();
    const result = calls.run(call.start, () => released.push('freed'));
    call.finish('\\Device\\HarddiskVolume3\\x');
    await expect(result).resolves.toEqual({ value: '\\Device\\HarddiskVolume3\\x' });
    expect(released).toEqual(['freed']);
    expect(calls.stuck).toBe(0);
  });

  it('stops waiting at the deadline; the hung call holds its thread (and its memory) until it returns, if ever', async () => {
    const calls = new BoundedCalls(20, 2);
    const released: string[] = [];
    const first = pending<string>();
    await expect(calls.run(first.start, () => released.push('first'))).resolves.toBe('stalled');
    expect([calls.stuck, calls.exhausted, released]).toEqual([1, false, []]);
    const second = pending<string>();
    await expect(calls.run(second.start, () => released.push('second'))).resolves.toBe('stalled');
    expect([calls.stuck, calls.exhausted]).toEqual([2, true]); // time for a fresh worker
    first.finish('late'); // a slow query that came back after all
    expect([calls.stuck, calls.exhausted, released]).toEqual([1, false, ['first']]);
  });

  it('allows all pool threads but one to be held', () => {
    expect(maxStuckCalls({ UV_THREADPOOL_SIZE: '16' })).toBe(15);
    expect(maxStuckCalls({})).toBe(3);
    expect(maxStuckCalls({ UV_THREADPOOL_SIZE: 'x' })).toBe(3);
  });
});
