// The Electron smoke script itself runs only where Electron can launch; here it is at least loaded
// (its imports: playwright-core's _electron, the shared check) and its bad arguments refused, so a
// broken script shows in `npm test`, not first on a Windows runner.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const smoke = (...args: string[]) =>
  spawnSync(process.execPath, ['tests/smoke/electron-smoke.mjs', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 20_000 });

describe('npm run smoke:electron', () => {
  it('refuses arguments it does not take in one line, exit 2', () => {
    const result = smoke('--exectuable', 'x');
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      '',
      'smoke:electron: expected no arguments or --executable <path to holdwatch>, got: --exectuable x\n',
    ]);
  });

  it('fails in one line, launching nothing, when the executable it is given does not exist', () => {
    const result = smoke('--executable', '/nonexistent/holdwatch');
    expect([result.status, result.stdout, result.stderr]).toEqual([
      1,
      '',
      'smoke:electron: FAILED, nothing launched: no such executable: /nonexistent/holdwatch\n',
    ]);
  });
});
