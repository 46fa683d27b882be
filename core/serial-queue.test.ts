import { expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

it('runs tasks one at a time in order, keeps going after a failure, and drains what was queued meanwhile', async () => {
  const errors: unknown[] = [];
  const queue = new SerialQueue((e) => errors.push(e));
  const log: string[] = [];
  const step = (name: string, ms: number) => () => new Promise<string>((r) => setTimeout(() => (log.push(name), r(name)), ms));
  const a = queue.run(step('a', 20));
  const failed = queue.run(async () => Promise.reject(new Error('boom')));
  const b = queue.run(step('b', 1));
  void queue.run(async () => void queue.run(step('late', 1)));
  await queue.drain();
  expect(await a).toBe('a');
  await expect(failed).rejects.toThrow('boom');
  expect(await b).toBe('b');
  expect(log).toEqual(['a', 'b', 'late']);
  expect(errors).toHaveLength(1);
});
