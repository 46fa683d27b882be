import { describe, expect, it } from 'vitest';
import type { WalkResult } from './fd-walk.js';
import { answersOfJoined } from './scan-pool.js';

const part = (processCount: number) => ({ holdings: [], infos: [], denied: [], processCount, handleCount: 0 }) as unknown as WalkResult;

describe('answersOfJoined: the workers that took part in a walk', () => {
  it('waits for the joined ones only: a late worker answers null, and is not waited for', async () => {
    let answerLate!: (value: WalkResult | null) => void;
    const late = new Promise<WalkResult | null>((resolve) => (answerLate = resolve));
    await expect(answersOfJoined([Promise.resolve(part(3)), late], 1)).resolves.toEqual([part(3)]);
    answerLate(null);
  });

  it('none joined: done at once, and a late worker failing later is no unhandled rejection', async () => {
    const failing = Promise.reject(new Error('worker thread ended'));
    await expect(answersOfJoined([failing, new Promise(() => undefined)], 0)).resolves.toEqual([]);
  });

  it('a failure while it waits fails the walk: a joined worker that died', async () => {
    await expect(answersOfJoined([Promise.reject(new Error('a scan worker thread ended (exit code 7)'))], 1)).rejects.toThrow(/exit code 7/);
  });

  it('skips the null of a worker that came too late, and waits for the joined one after it', async () => {
    await expect(answersOfJoined([Promise.resolve(null), Promise.resolve(part(2))], 1)).resolves.toEqual([part(2)]);
  });
});
