import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../tests/support/manual-clock.js';
import { feed, fixture, runFixture, shape } from '../../tests/fixtures/runners/feed.js';
import { GoTestVerboseParser } from './go-verbose.js';
import { detectRunner } from './sniffing-parser.js';

let goHome = '';
let real = { stdout: '', stderr: '', status: null as number | null };

beforeAll(() => {
  // No network and no writes into the repo: a module without deps, a throwaway cache.
  goHome = mkdtempSync(join(tmpdir(), 'hw-go-'));
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: join(goHome, 'cache'), GOPATH: join(goHome, 'path') };
  real = runFixture('go', ['test', '-v', '-count=1', '.'], { cwd: fixture('go'), env });
});

afterAll(() => rmSync(goHome, { recursive: true, force: true }));

describe('GoTestVerboseParser on a real `go test -v` run', () => {
  it('is chosen by the first line', () => {
    expect(detectRunner(real.stdout.split('\n')[0]!)).toBe('go-test-v');
  });

  it.each([1, 7, 4096])('gives the timeline whatever the chunk size (%i)', (size) => {
    expect(real.status).toBe(1);
    const out = feed(new GoTestVerboseParser(new ManualClock(0)), real.stdout, size, real.status);
    expect(shape(out.events)).toEqual([
      'run-start go test',
      'test-start TestPasses',
      'test-end TestPasses passed',
      'test-start TestFailsInBody',
      'test-end TestFailsInBody failed',
      'test-start TestFailsInCleanup',
      'test-end TestFailsInCleanup failed',
      'test-start TestSkipped',
      'test-end TestSkipped skipped',
      'test-start TestGroup',
      'test-start TestGroup/inner',
      // -v prints a subtest's result with its parent's, after it.
      'test-end TestGroup passed',
      'test-end TestGroup/inner passed',
      'run-end go test failed',
    ]);
  });

  it('keeps the failure message and says which test printed a line', () => {
    const out = feed(new GoTestVerboseParser(new ManualClock(0)), real.stdout, 4096, real.status);
    expect(out.events.find((e) => e.name === 'TestFailsInCleanup' && e.type === 'test-end')!.detail).toBe('example_test.go:15: cleanup failed');
    expect(out.lines).toContainEqual({ text: '    example_test.go:10: body failed', test: 'TestFailsInBody' });
  });
});
