import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../tests/support/manual-clock.js';
import { feed, fixture, runFixture, shape } from '../../tests/fixtures/runners/feed.js';
import { GoTestJsonParser } from './go-json.js';

const PKG = 'example.com/holdwatch-fixture';
let goHome = '';
let real = { stdout: '', stderr: '', status: null as number | null };

beforeAll(() => {
  // No network and no writes into the repo: a module without deps, a throwaway cache.
  goHome = mkdtempSync(join(tmpdir(), 'hw-go-'));
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: join(goHome, 'cache'), GOPATH: join(goHome, 'path') };
  real = runFixture('go', ['test', '-json', '-count=1', '.'], { cwd: fixture('go'), env });
});

afterAll(() => rmSync(goHome, { recursive: true, force: true }));

describe('GoTestJsonParser on a real `go test -json` run', () => {
  const expected = [
    'run-start go test',
    `test-start ${PKG}.TestPasses`,
    `test-end ${PKG}.TestPasses passed`,
    `test-start ${PKG}.TestFailsInBody`,
    `test-end ${PKG}.TestFailsInBody failed`,
    `test-start ${PKG}.TestFailsInCleanup`,
    `test-end ${PKG}.TestFailsInCleanup failed`,
    `test-start ${PKG}.TestSkipped`,
    `test-end ${PKG}.TestSkipped skipped`,
    `test-start ${PKG}.TestGroup`,
    `test-start ${PKG}.TestGroup/inner`,
    `test-end ${PKG}.TestGroup/inner passed`,
    `test-end ${PKG}.TestGroup passed`,
    'run-end go test failed',
  ];

  it.each([1, 7, 4096])('gives the timeline whatever the chunk size (%i)', (size) => {
    expect(real.status).toBe(1);
    const out = feed(new GoTestJsonParser(new ManualClock(0)), real.stdout, size, real.status);
    expect(shape(out.events)).toEqual(expected);
  });

  it("uses the runner's timestamps and keeps the failure message", () => {
    const out = feed(new GoTestJsonParser(new ManualClock(0)), real.stdout, 4096);
    const firstTime = /"Time":"([^"]+)"/.exec(real.stdout)![1]!;
    expect(out.events[0]!.atMs).toBe(Date.parse(firstTime));
    const times = out.events.map((e) => e.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(out.events.find((e) => e.name.endsWith('TestFailsInCleanup') && e.type === 'test-end')!.detail).toBe('example_test.go:15: cleanup failed');
  });

  it('decodes the output lines and says which test printed them', () => {
    const out = feed(new GoTestJsonParser(new ManualClock(0)), real.stdout, 4096);
    expect(out.lines).toContainEqual({ text: '    example_test.go:10: body failed', test: `${PKG}.TestFailsInBody` });
    expect(out.lines).toContainEqual({ text: `FAIL\t${PKG}\t${/FAIL\\t[^\\]+\\t([0-9.]+s)/.exec(real.stdout)![1]}` });
  });
});

describe('GoTestJsonParser on lines that are not test2json', () => {
  it('passes build errors through and ends the run by the exit code', () => {
    const text = '# example.com/x\n./x.go:3:1: syntax error\nFAIL\texample.com/x [build failed]\n';
    const out = feed(new GoTestJsonParser(new ManualClock(5)), text, 3, 2);
    expect(shape(out.events)).toEqual(['run-start go test', 'run-end go test failed']);
    expect(out.lines.map((l) => l.text)).toEqual(['# example.com/x', './x.go:3:1: syntax error', 'FAIL\texample.com/x [build failed]']);
  });
});
