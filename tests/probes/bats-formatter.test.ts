import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, shape } from '../fixtures/runners/feed.js';
import { runWithProbe } from './probe-run.js';

const FORMATTER = join(import.meta.dirname, '../../probes/bats/holdwatch-bats-formatter.mjs');

function bats(env: NodeJS.ProcessEnv = {}, eventsPath?: (dir: string) => string) {
  return runWithProbe('bats', ['--formatter', FORMATTER, fixture('bats', 'example.bats')], {
    cwd: fixture('bats'),
    env,
    ...(eventsPath ? { eventsPath } : {}),
  });
}

describe('holdwatch-bats-formatter under the real bats', () => {
  const run = bats({ HOLDWATCH_BATS_FORMATTER: 'tap' });

  it('says the body passed and the teardown failed where bats prints only "not ok"', () => {
    expect(run.status).toBe(1);
    expect(run.rejectedLines).toBe(0);
    expect(shape(run.events)).toEqual([
      'run-start bats',
      'test-start passes',
      'test-end passes passed',
      'test-start fails in body',
      'test-end fails in body failed',
      'test-start fails in teardown',
      'phase fails in teardown call passed',
      'phase fails in teardown teardown error',
      'test-end fails in teardown error',
      'test-start is skipped',
      'test-end is skipped skipped',
      'run-end bats failed',
    ]);
    const teardown = run.events.find((e) => e.phase === 'teardown')!;
    expect(teardown.detail).toContain('rm -d "$BATS_TEST_TMPDIR/not-empty-dir"');
  });

  it("keeps bats' own formatter output (forwarded to bats-format-tap)", () => {
    expect(run.output).toContain('not ok 3 fails in teardown');
    expect(run.output).toMatch(/# rm: cannot remove '.*\/not-empty-dir': Directory not empty/);
    expect(run.output).not.toMatch(/^begin /m);
  });

  it('works with the pretty formatter too', () => {
    const pretty = bats({ HOLDWATCH_BATS_FORMATTER: 'pretty' });
    expect(pretty.output).toContain('4 tests, 2 failures, 1 skipped');
    expect(shape(pretty.events)).toEqual(shape(run.events));
  });

  it('prints plain TAP itself when no built-in formatter is named', () => {
    const plain = bats({ HOLDWATCH_BATS_FORMATTER: 'no-such' });
    expect(plain.output).toMatch(/^1\.\.4\nok 1 passes\nnot ok 2 fails in body\n/);
    expect(shape(plain.events)).toEqual(shape(run.events));
  });

  it('never breaks the run when the events file cannot be written', () => {
    const broken = bats({}, (dir) => join(dir, 'no-such-dir', 'events.jsonl'));
    expect(broken.status).toBe(1);
    expect(broken.events).toEqual([]);
    expect(broken.output).toContain('not ok 3 fails in teardown');
  });
});
