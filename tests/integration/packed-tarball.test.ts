// The package as npm delivers it: `npm pack`, then `npm install <tgz>` into an empty prefix, and the
// installed `holdwatch` runs a small leaking program under `run` (the Python and the Node probe both
// loaded from the installed package's probes/) and `scan`s a held file. The tarball carries what `run`
// needs at run time and none of the bench or the tests.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../contract/holders.js';
import type { RunRecord } from '../../contract/runs.js';
import { REPO_ROOT } from '../support/cli.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let scratch: string;
let installed: string;
let tarballFiles: string[];
const holders: ChildProcess[] = [];

/** The installed CLI, with a private data dir; exit code and output, never a throw. */
function holdwatch(args: string[], cwd = scratch): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(installed, args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, HOLDWATCH_DATA_DIR: join(scratch, 'data') },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status: number | null; stdout: string; stderr: string };
    return { code: e.status ?? -1, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-tarball-'));
  // dist is built by the project's globalSetup; `prepare` would build the renderer and the app too.
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: REPO_ROOT, encoding: 'utf8' }),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarballFiles = pack!.files.map((f) => f.path);
  const prefix = join(scratch, 'prefix');
  mkdirSync(prefix);
  // From npm's cache where it can (npm ci filled it), so the test does not depend on the network's speed.
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', join(scratch, pack!.filename)], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
  installed = join(prefix, 'node_modules', '.bin', 'holdwatch');
}, 240_000);

afterAll(() => {
  for (const child of holders) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('carries the CLI, the built code and every probe, and none of the bench, the tests or their builds', () => {
    for (const needed of ['bin/holdwatch.js', 'dist/cli/main.js', 'dist/index.js', 'probes/node/preload.cjs', 'probes/python/sitecustomize.py', 'package.json'])
      expect(tarballFiles).toContain(needed);
    expect(tarballFiles.filter((f) => f.startsWith('probes/')).length).toBeGreaterThan(4);
    // The one entry point package.json names, and nothing else from bin/ (a stray script would ship too).
    expect(tarballFiles.filter((f) => f.startsWith('bin/'))).toEqual(['bin/holdwatch.js']);
    // The Node probe is its entry and the modules beside it that the entry requires.
    const nodeProbe = readdirSync(join(REPO_ROOT, 'probes/node'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.cjs'))
      .map((f) => f.replaceAll('\\', '/'));
    expect(nodeProbe.length).toBeGreaterThan(10);
    for (const file of nodeProbe) expect(tarballFiles).toContain(`probes/node/${file}`);
    expect(tarballFiles.filter((f) => /^(bench|tests|dist\/bench|dist\/tests)\/|\.test\.|tsbuildinfo$/.test(f))).toEqual([]);
  });

  it('installed from an empty prefix, says its version and imports as a library', () => {
    expect(holdwatch(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const lib = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('holdwatch'); console.log(typeof m.scan, typeof m.run)"], {
      cwd: join(scratch, 'prefix'),
      encoding: 'utf8',
    });
    expect(lib.trim()).toBe('function function');
  });

  it('scans a held file', () => {
    const dir = join(scratch, 'scanned');
    mkdirSync(dir);
    const child = spawn('sh', ['-c', `exec 3>"${dir}/held.log"; echo ready; exec sleep 60`], { stdio: ['ignore', 'pipe', 'ignore'] });
    holders.push(child);
    execFileSync('sh', ['-c', `until [ -e "${dir}/held.log" ]; do sleep 0.02; done`]);
    // The holder is listed once its fd is open: the file exists before sh's exec of sleep keeps fd 3.
    let snapshot: Snapshot | undefined;
    for (let i = 0; i < 50 && !snapshot?.holders.some((h) => h.pid === child.pid); i++) {
      const out = holdwatch(['scan', dir, '--json']);
      expect(out.code).toBe(0);
      snapshot = JSON.parse(out.stdout) as Snapshot;
    }
    expect(snapshot!.holders.find((h) => h.pid === child.pid)).toMatchObject({ path: join(dir, 'held.log'), kind: 'file' });
  });

  it('runs a command under `run` with the Python and the Node probe loaded from its own probes/', () => {
    const work = join(scratch, 'work');
    const src = join(scratch, 'src');
    mkdirSync(work);
    mkdirSync(src);
    // Each opens a file on its line 2 and holds it for a second: long enough for the polls to see it.
    writeFileSync(join(src, 'leak.py'), `import os, sys, time\nlog = open(os.path.join(sys.argv[1], "py.log"), "w")\ntime.sleep(1.5)\n`);
    writeFileSync(
      join(src, 'leak.cjs'),
      `const fs = require('node:fs'), path = require('node:path');\nconst fd = fs.openSync(path.join(process.argv[2], 'node.log'), 'w');\nsetTimeout(() => {}, 1500);\n`,
    );
    const recordPath = join(scratch, 'record.json');
    const out = holdwatch(
      ['run', '--watch', work, '--json', recordPath, '--', 'sh', '-c', `${SYSTEM_PYTHON} leak.py "$0" & node leak.cjs "$0" & wait`, work],
      src,
    );
    expect(out.stderr).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    expect(out.code).toBe(0);
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as RunRecord;
    const openedAt = (name: string) => {
      const stack = record.holders.find((h) => h.path === join(work, name))?.attribution.openStack;
      return stack?.found ? `${stack.stack.runtime} ${stack.stack.frames.find((f) => f.user)?.file}:${stack.stack.frames.find((f) => f.user)?.line}` : stack;
    };
    expect(openedAt('py.log')).toBe(`python ${join(src, 'leak.py')}:2`);
    expect(openedAt('node.log')).toBe(`node ${join(src, 'leak.cjs')}:2`);
  });
});
