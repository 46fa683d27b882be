// A data dir another user can change (shared/reviews/reliability-2.md F1): with HOLDWATCH_DATA_DIR in
// a shared folder, a user who planted `runs` or a run's files as links got root's holdwatch to
// overwrite and chmod their targets. Such a data dir is refused in one line, before the command runs,
// and nothing is written or chmodded through a link: not under the data dir, not at a report's path.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';

const isRoot = process.geteuid?.() === 0;
const NOBODY = 65534;
let scratch: string;
let watched: string;
let victim: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-shared-data-'));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
  // What a planted link points at: a dir and a file of this user's that holdwatch must leave alone.
  victim = join(scratch, 'victim');
  mkdirSync(victim, { mode: 0o755 });
  chmodSync(victim, 0o755);
  writeFileSync(join(victim, 'secret'), 'untouched\n', { mode: 0o640 });
  chmodSync(join(victim, 'secret'), 0o640);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ranMarker = () => join(scratch, 'ran');
const runWith = (dataDir: string, extra: string[] = []): Promise<CliResult> =>
  runCli(['run', '--watch', watched, ...extra, '--', 'sh', '-c', `touch ${JSON.stringify(ranMarker())}; exit 7`], { env: { HOLDWATCH_DATA_DIR: dataDir } });

function expectRefused(result: CliResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(existsSync(ranMarker()), 'the command ran').toBe(false);
}

function expectVictimUntouched(): void {
  expect(statSync(victim).mode & 0o7777).toBe(0o755);
  expect(statSync(join(victim, 'secret')).mode & 0o7777).toBe(0o640);
  expect(readFileSync(join(victim, 'secret'), 'utf8')).toBe('untouched\n');
}

/** A dir at `path` with `mode` (chmod: the umask would narrow it). */
function dirWithMode(path: string, mode: number): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, mode);
  return path;
}

describe('a data dir another user could change', () => {
  it('is refused when its `runs` is a link: the link target keeps its mode', async () => {
    const data = dirWithMode(join(scratch, 'linked-runs'), 0o700);
    symlinkSync(victim, join(data, 'runs'));
    expectRefused(await runWith(data), /linked-runs\/runs is not a directory \(a link or a file\)/);
    expectVictimUntouched();
  });

  it.skipIf(!isRoot)('is refused when every user may write it, or a dir above it, or it is another user’s', async () => {
    expectRefused(await runWith(dirWithMode(join(scratch, 'world'), 0o777)), /world is writable by every user \(mode 0777\)/);
    expectRefused(await runWith(dirWithMode(join(scratch, 'group'), 0o770)), /group is writable by group 0 \(mode 0770\)/);
    const open = dirWithMode(join(scratch, 'open'), 0o777);
    expectRefused(await runWith(dirWithMode(join(open, 'data'), 0o700)), /lies in .*\/open, which every user can write \(mode 0777\)/);
    const theirs = dirWithMode(join(scratch, 'theirs'), 0o700);
    chownSync(theirs, NOBODY, NOBODY);
    expectRefused(await runWith(theirs), /theirs belongs to uid 65534, not to this user \(uid 0\)/);
  });

  it.skipIf(!isRoot)('works below a sticky dir every user may write (/tmp), and in a dir of its own there', async () => {
    const sticky = dirWithMode(join(scratch, 'sticky'), 0o1777);
    const run = await runWith(join(sticky, 'data'));
    expect(run.code, run.stderr).toBe(7);
    expect(statSync(join(sticky, 'data')).mode & 0o777).toBe(0o700);
    rmSync(ranMarker());
  });

  it('a report whose path is a link is refused before the command runs; its target is left as it was', async () => {
    const link = join(scratch, 'report-link.md');
    symlinkSync(join(victim, 'secret'), link);
    expectRefused(await runWith(join(scratch, 'data'), ['--report', link]), /report-link\.md is a symbolic link: holdwatch does not write through links/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expectVictimUntouched();
  });
});
