import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../tests/support/manual-clock.js';
import { matchTeardownFailure } from '../signatures/match-line.js';
import { feed, fixture, runFixture, shape } from '../../tests/fixtures/runners/feed.js';
import { TapStreamParser } from './tap.js';

describe("TapStreamParser on node --test's TAP reporter", () => {
  const real = runFixture(process.execPath, ['--test', '--test-reporter=tap', fixture('node', 'example.test.mjs')]);

  it.each([1, 5, 8192])('gives the timeline, a failing after-hook as an error (chunks of %i)', (size) => {
    expect(real.status).toBe(1);
    const out = feed(new TapStreamParser('node --test', new ManualClock(0)), real.stdout, size, real.status);
    expect(shape(out.events)).toEqual([
      'run-start node --test',
      'test-start passes',
      'test-end passes passed',
      'test-start fails in body',
      'test-end fails in body failed',
      'test-start fails in teardown',
      'test-end fails in teardown error',
      'test-start is skipped',
      'test-end is skipped skipped',
      'test-start group',
      'test-start group > inner passes',
      'test-end group > inner passes passed',
      'test-end group passed',
      'run-end node --test failed',
    ]);
  });

  it("keeps the failure's message and passes every line through for the signature matcher", () => {
    const out = feed(new TapStreamParser('node --test', new ManualClock(0)), real.stdout, 64);
    const teardown = out.events.find((e) => e.type === 'test-end' && e.name === 'fails in teardown')!;
    expect(teardown.detail).toBe("EBUSY: resource busy or locked, rmdir '/tmp/holdwatch-fixture'");
    expect(out.lines.map((l) => l.text).join('\n')).toBe(real.stdout.replace(/\n$/, ''));
    const failures = out.lines.flatMap((l) => matchTeardownFailure(l.text) ?? []);
    expect(failures).toMatchObject([{ kind: 'busy', source: 'node', path: '/tmp/holdwatch-fixture' }]);
  });

  it('stamps each event with the arrival time of its line, though the parser releases it later', () => {
    const clock = new ManualClock(1000);
    const parser = new TapStreamParser('t', clock);
    expect(parser.push('TAP version 13\n# Subtest: a\n').events).toEqual([{ type: 'run-start', name: 't', atMs: 1000 }]);
    clock.advance(250);
    expect(parser.push('ok 1 - a\n').events).toEqual([{ type: 'test-start', name: 'a', atMs: 1000 }]);
    clock.advance(250);
    // The test point completes when the next line shows no YAML block follows.
    expect(parser.push('1..1\n').events).toEqual([{ type: 'test-end', name: 'a', outcome: 'passed', atMs: 1250 }]);
    expect(parser.end(0).events).toEqual([{ type: 'run-end', name: 't', outcome: 'passed', atMs: 1500 }]);
  });
});

describe('TapStreamParser on bats --formatter tap', () => {
  const real = runFixture('bats', ['--formatter', 'tap', fixture('bats', 'example.bats')]);

  it('gives test ends only (plain TAP has no start marker) and the teardown failure as a plain failure', () => {
    expect(real.status).toBe(1);
    const out = feed(new TapStreamParser('bats', new ManualClock(0)), real.stdout, 3, real.status);
    expect(shape(out.events)).toEqual([
      'run-start bats',
      'test-end passes passed',
      'test-end fails in body failed',
      'test-end fails in teardown failed',
      'test-end is skipped skipped',
      'run-end bats failed',
    ]);
    const failures = out.lines.flatMap((l) => matchTeardownFailure(l.text) ?? []);
    expect(failures).toMatchObject([{ kind: 'directory-not-empty', source: 'rm' }]);
    expect(failures[0]!.path).toMatch(/\/test\/3\/not-empty-dir$/);
  });
});

describe('TapStreamParser edge cases', () => {
  it('ends the run failed on a bail out', () => {
    const out = feed(new TapStreamParser('t', new ManualClock(0)), 'TAP version 14\n1..2\nok 1 - a\nBail out! disk full\n', 4);
    expect(shape(out.events)).toEqual(['run-start t', 'test-end a passed', 'run-end t failed']);
  });

  it('ends the run once, by the exit code, when the stream stops early', () => {
    const out = feed(new TapStreamParser('t', new ManualClock(0)), 'TAP version 13\nok 1 - a\n', 100, 137);
    expect(shape(out.events)).toEqual(['run-start t', 'test-end a passed', 'run-end t failed']);
  });
});
