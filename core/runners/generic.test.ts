import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../tests/support/manual-clock.js';
import { GenericLineParser } from './generic.js';

describe('GenericLineParser', () => {
  it('gives the run start (at launch) and end (by exit code), and the lines', () => {
    const clock = new ManualClock(100);
    const parser = new GenericLineParser('make test', clock);
    expect(parser.start().events).toEqual([{ type: 'run-start', name: 'make test', atMs: 100 }]);
    clock.advance(50);
    expect(parser.push('building\nrm: cannot remove').lines).toEqual([{ text: 'building' }]);
    clock.advance(50);
    expect(parser.end(2)).toEqual({
      events: [{ type: 'run-end', name: 'make test', outcome: 'failed', atMs: 200 }],
      lines: [{ text: 'rm: cannot remove' }],
    });
  });

  it('starts the run at the first output when start() was not called, and leaves the outcome open without an exit code', () => {
    const parser = new GenericLineParser('x', new ManualClock(7));
    expect(parser.push('a\n').events).toEqual([{ type: 'run-start', name: 'x', atMs: 7 }]);
    expect(parser.end(null).events).toEqual([{ type: 'run-end', name: 'x', atMs: 7 }]);
  });
});
