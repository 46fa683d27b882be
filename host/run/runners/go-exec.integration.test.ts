// The Windows route's build, for real: `go build` of probes/go/exec into the cache, once per version
// of its sources; without `go`, nothing is built and Go is left alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGoExec, prepareGoExec } from './go-exec.js';

const probesDir = join(import.meta.dirname, '../../../probes');

describe('prepareGoExec on Windows', () => {
  let scratch = '';
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'hw-go-exec-build-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('builds the program into the cache, names it in GOFLAGS, and reuses it the next time', async () => {
    // GOOS/GOARCH of the user's shell never reach the build: it is for the machine holdwatch runs on.
    const { env, program: bin } = await prepareGoExec({ ...process.env, GOOS: 'plan9', GOFLAGS: '-count=1' }, scratch, { platform: 'win32', probesDir });
    expect(env.GOFLAGS).toBe(`-count=1 -exec=${bin}`);
    expect(bin).toMatch(/[/\\]go-exec[/\\][0-9a-f]{16}[/\\]holdwatch-go-exec\.exe$/);
    // Built for this machine: it runs, and with no program to run it says so and exits 2.
    const run = (() => {
      try {
        return execFileSync(bin!, [], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        return error as { status: number; stderr: string };
      }
    })();
    expect(run).toMatchObject({ status: 2, stderr: 'holdwatch-go-exec: no program to run\n' });
    const builtAt = statSync(bin!).mtimeMs;
    expect(await buildGoExec(process.env, bin!, probesDir)).toBe(true);
    expect(statSync(bin!).mtimeMs).toBe(builtAt);
  }, 180_000);

  it('without go on PATH builds nothing and leaves Go alone', async () => {
    expect(await prepareGoExec({ PATH: '/nonexistent' }, join(scratch, 'no-go'), { platform: 'win32', probesDir })).toEqual({ env: {}, program: null });
  });
});
