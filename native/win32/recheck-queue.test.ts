// The due list alone: what comes due, in what order, across processes, and what it drops.
import { describe, expect, it } from 'vitest';
import { RecheckQueue } from './recheck-queue.js';

const always = () => true;

describe('RecheckQueue', () => {
  it('gives only what is due, earliest first within a process', () => {
    const queue = new RecheckQueue<string>();
    queue.push(4, 'late', 300);
    queue.push(4, 'early', 100);
    queue.push(4, 'middle', 200);
    expect(queue.takeDue(150, 10, always)).toEqual(['early']);
    expect(queue.takeDue(1000, 10, always)).toEqual(['middle', 'late']);
    expect(queue.size).toBe(0);
  });

  it('takes in turn across processes, so a process far behind gets no more than its share', () => {
    const queue = new RecheckQueue<string>();
    for (let i = 0; i < 1000; i++) queue.push(8, `big${i}`, i);
    queue.push(40, 'small', 900);
    queue.push(44, 'other', 950);
    const taken = queue.takeDue(1000, 5, always);
    expect(taken).toEqual(['big0', 'small', 'other', 'big1', 'big2']);
  });

  it('drops what the caller no longer wants without counting it, and forgets a process', () => {
    const queue = new RecheckQueue<string>();
    queue.push(4, 'closed', 1);
    queue.push(4, 'open', 2);
    queue.push(8, 'gone', 1);
    expect(queue.takeDue(10, 1, (item) => item !== 'closed')).toEqual(['open']);
    queue.forget(8);
    expect(queue.size).toBe(0);
    expect(queue.takeDue(10, 5, always)).toEqual([]);
  });

  it('tells without a walk whether anything can be due: never early, and not after a pick took what was due', () => {
    const queue = new RecheckQueue<string>();
    expect(queue.anyDue(1000)).toBe(false);
    queue.push(4, 'a', 300);
    queue.push(8, 'b', 100);
    expect(queue.anyDue(99)).toBe(false);
    expect(queue.anyDue(100)).toBe(true);
    expect(queue.takeDue(150, 10, always)).toEqual(['b']);
    expect(queue.anyDue(299)).toBe(false);
    expect(queue.anyDue(300)).toBe(true);
    queue.forget(4);
    expect(queue.anyDue(1000)).toBe(false);
  });
});
