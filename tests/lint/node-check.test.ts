// `npm start`, `npm test` and `npm run test:quick` on a Node older than the engines line: one line that
// says which Node this is and what to do, before anything else runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const CHECK = join(REPO_ROOT, 'scripts/check-node.cjs');
/** Debian's Node 20, older than the engines line; the check is what it must meet. */
const OLD_NODE = '/usr/bin/node';
const oldNodeVersion = existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';

describe('the Node version check', () => {
  it.skipIf(!/^v(1\d|20|21|22\.(\d|1[01]))\./.test(oldNodeVersion))('on an old Node: one line naming it and the Node needed, exit 1', () => {
    const run = spawnSync(OLD_NODE, [CHECK], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `holdwatch needs Node >=22.12; this is Node ${oldNodeVersion.slice(1)} (${OLD_NODE}): install Node 24 (or run \`npx node@24\`), see README "Node"`,
    ]);
  });

  it('on this Node: silent, exit 0', () => {
    const run = spawnSync(process.execPath, [CHECK], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('runs first in npm start, npm test and npm run test:quick', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['start', 'test', 'test:quick']) expect(scripts[name], name).toMatch(/^node scripts\/check-node\.cjs && /);
  });
});
