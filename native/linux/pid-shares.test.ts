import { describe, expect, it } from 'vitest';
import { PidShares, sharePids } from './pid-shares.js';

describe('PidShares', () => {
  it('hands out each share in order, then nothing', () => {
    const shares = new PidShares(
      sharePids([
        [10, 12],
        [11, 13, 15],
      ]),
    );
    expect(shares.count).toBe(2);
    expect(shares.share(1)).toEqual([11, 13, 15]);
    expect([shares.claim(1), shares.claim(1), shares.claim(1), shares.claim(1)]).toEqual([11, 13, 15, undefined]);
  });

  it('lets a thread that finished its own share take what is left of the others, each pid once', () => {
    const buffer = sharePids([
      [2, 4, 6],
      [1, 3, 5, 7],
    ]);
    const mine = new PidShares(buffer);
    const theirs = new PidShares(buffer); // the worker's view of the same memory
    expect(theirs.claim(1)).toBe(1);
    const walkedHere = [...mine.claimAll(0)];
    expect(walkedHere).toEqual([2, 4, 6, 3, 5, 7]);
    expect(theirs.claim(1)).toBeUndefined();
  });

  it('copes with empty shares', () => {
    const shares = new PidShares(sharePids([[], [9]]));
    expect([...shares.claimAll(0)]).toEqual([9]);
  });

  it('a worker joins a walk until the caller closes it; close says how many joined, and no one joins after', () => {
    const buffer = sharePids([[1], [2], [3]]);
    const caller = new PidShares(buffer);
    const early = new PidShares(buffer);
    const late = new PidShares(buffer);
    expect(early.join()).toBe(true);
    expect([...caller.claimAll(0)]).toEqual([1, 2, 3]);
    expect(caller.close()).toBe(1);
    expect(late.join()).toBe(false);
    expect(new PidShares(sharePids([[4], [5]])).close()).toBe(0); // nobody joined: the walk is done
  });
});
