// A Go test binary that runs without holdwatch's stop at its exit (probes/go: the program could not be
// built, or holdwatch's channel did not answer) keeps its verdicts on scans alone, which a binary that
// exits a moment after its last test outruns: `holdwatch run` says so, once per binary, with the reason.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { writeGoLeakModule } from '../support/go-leak-module.js';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-go-missed-'));
  writeGoLeakModule(scratch);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const said = (stderr: string) => stderr.split('\n').filter((line) => line.includes('without the stop at its exit'));

describe('holdwatch run, a Go test binary without the stop at its exit', () => {
  it('says which binary and why, once, and the run goes on as it would have', async () => {
    const watched = mkdtempSync(join(scratch, 'watched-'));
    const data = mkdtempSync(join(scratch, 'data-'));
    // Where the program is built is a file: the build has no dir to go to.
    writeFileSync(join(data, 'go-exec'), '');
    const result = await runCli(['run', '--watch', watched, '--', 'go', 'test', '-count=1', '-vet=off', '.'], {
      cwd: join(scratch, 'leak'),
      env: { HOLDWATCH_DATA_DIR: data, TMPDIR: watched, HOLDWATCH_STRACE: '', GOFLAGS: '' },
    });
    expect(result.code, result.stderr).toBe(1); // TestFails fails as intended
    const dir = `${data}/go-exec/`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(said(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^holdwatch: a Go test binary ran without the stop at its exit; what it held at its end rests on scans alone: ` +
            `leak\\.test: the stop at its exit could not be built \\(no dir for it at ${dir}[0-9a-f]{16}\\)$`,
        ),
      ),
    ]);
  }, 120_000);

  it('says nothing when the stop was made', async () => {
    const watched = mkdtempSync(join(scratch, 'watched-'));
    const data = mkdtempSync(join(scratch, 'data-'));
    const result = await runCli(['run', '--watch', watched, '--', 'go', 'test', '-count=1', '-vet=off', '.'], {
      cwd: join(scratch, 'leak'),
      env: { HOLDWATCH_DATA_DIR: data, TMPDIR: watched, HOLDWATCH_STRACE: '', GOFLAGS: '' },
    });
    expect(result.code, result.stderr).toBe(1); // TestFails fails as intended
    expect(said(result.stderr)).toEqual([]);
    // The stop held the binary's leaked file for the exit's scan: its temp dir's cleanup deleted it held.
    expect(result.stderr).toContain('1 blocked cleanup');
  }, 120_000);
});
