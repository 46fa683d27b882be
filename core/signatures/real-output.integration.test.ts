// The failure texts as this machine's runtimes really print them: each case makes the failure happen
// (rmdir of a non-empty dir; removal of a mount point, which Linux refuses with EBUSY) and feeds the
// captured output, line by line, to the matcher.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeardownFailure } from './failure.js';
import { matchTeardownFailure } from './match-line.js';

const PYTHON = '/usr/bin/python3';
const isRoot = process.getuid?.() === 0;
let scratch = '';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): { failures: TeardownFailure[]; output: string } {
  const r = spawnSync(cmd, args, { cwd: scratch, encoding: 'utf8', env, timeout: 120_000 });
  const output = `${r.stdout}${r.stderr}`;
  const failures = output.split('\n').flatMap((line) => matchTeardownFailure(line) ?? []);
  return { failures, output };
}

function nonEmptyDir(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'sub', 'f.txt'), 'x');
  return dir;
}

/** A tmpfs mounted at `dir`: removing `dir` then fails with EBUSY. Unmounted in afterAll. */
const mounts: string[] = [];
function mountPoint(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', 'holdwatch-test', dir]);
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
  mounts.push(dir);
  return dir;
}

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hw-signatures-')));
});

afterAll(() => {
  try {
    for (const m of mounts) spawnSync('umount', ['-l', m]);
    // Mounts a test made itself (the Go case mounts inside its TempDir).
    for (const m of mountsUnder(scratch)) spawnSync('umount', ['-l', m]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

function mountsUnder(dir: string): string[] {
  const r = spawnSync('findmnt', ['-rn', '-o', 'TARGET'], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((t) => t.startsWith(`${dir}/`));
}

describe('ENOTEMPTY as really printed', () => {
  it('python os.rmdir', () => {
    const dir = nonEmptyDir('py');
    const { failures, output } = run(PYTHON, ['-c', `import os; os.rmdir(${JSON.stringify(dir)})`]);
    expect(output).toContain('[Errno 39] Directory not empty');
    expect(failures).toMatchObject([{ kind: 'directory-not-empty', source: 'python', error: { name: 'ENOTEMPTY', code: 39 }, path: dir }]);
  });

  it('node fs.rmdirSync', () => {
    const dir = nonEmptyDir('node');
    const { failures } = run(process.execPath, ['-e', `require('fs').rmdirSync(${JSON.stringify(dir)})`]);
    expect(failures).toMatchObject([{ kind: 'directory-not-empty', source: 'node', path: dir }]);
  });

  it('rm -d and rmdir', () => {
    const dir = nonEmptyDir('rm');
    expect(run('rm', ['-d', dir]).failures).toMatchObject([{ kind: 'directory-not-empty', source: 'rm', path: dir }]);
    expect(run('rmdir', [dir]).failures).toMatchObject([{ kind: 'directory-not-empty', source: 'rm', path: dir }]);
  });
});

describe.skipIf(!isRoot)('EBUSY as really printed (removing a mount point; needs root to mount)', () => {
  it('python shutil.rmtree', () => {
    const dir = mountPoint('py-mnt');
    const { failures } = run(PYTHON, ['-c', `import shutil; shutil.rmtree(${JSON.stringify(dir)})`]);
    expect(failures).toMatchObject([{ kind: 'busy', source: 'python', error: { name: 'EBUSY', code: 16 }, path: dir }]);
  });

  it('node fs.rmSync recursive', () => {
    const dir = mountPoint('node-mnt');
    const { failures } = run(process.execPath, ['-e', `require('fs').rmSync(${JSON.stringify(dir)}, { recursive: true })`]);
    expect(failures).toMatchObject([{ kind: 'busy', source: 'node', path: dir }]);
  });

  it('rm -r', () => {
    const dir = mountPoint('rm-mnt');
    expect(run('rm', ['-r', dir]).failures).toMatchObject([{ kind: 'busy', source: 'rm', path: dir }]);
  });

  it("go test: t.TempDir's cleanup fails on a mount inside it", () => {
    const mod = join(scratch, 'gomod');
    mkdirSync(mod);
    writeFileSync(join(mod, 'go.mod'), 'module example.com/hold\n\ngo 1.19\n');
    writeFileSync(
      join(mod, 'hold_test.go'),
      `package hold

import (
\t"os"
\t"os/exec"
\t"path/filepath"
\t"testing"
)

func TestMountInTempDir(t *testing.T) {
\tdir := filepath.Join(t.TempDir(), "mnt")
\tif err := os.Mkdir(dir, 0o755); err != nil {
\t\tt.Fatal(err)
\t}
\tif out, err := exec.Command("mount", "-t", "tmpfs", "holdwatch-test", dir).CombinedOutput(); err != nil {
\t\tt.Fatal(err, string(out))
\t}
}
`,
    );
    const gotmp = join(scratch, 'gotmp');
    mkdirSync(gotmp);
    const env = { ...process.env, TMPDIR: gotmp, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: join(scratch, 'gocache'), GOPATH: join(scratch, 'gopath') };
    const r = spawnSync('go', ['test', '-count=1', '.'], { cwd: mod, encoding: 'utf8', env, timeout: 120_000 });
    const output = `${r.stdout}${r.stderr}`;
    const failures = output.split('\n').flatMap((line) => matchTeardownFailure(line) ?? []);
    expect(output).toContain('TempDir RemoveAll cleanup');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: 'busy', source: 'go', classifiedBy: 'message' });
    expect(failures[0]!.path).toMatch(new RegExp(`^${gotmp}/TestMountInTempDir\\d+/001/mnt$`));
  });
});
