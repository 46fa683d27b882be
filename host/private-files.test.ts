// writePrivateFile and makePrivateDir against what another user could plant: a link, a hard link,
// a file or dir of theirs. Each is refused and its target keeps its content and mode.
import { chmodSync, chownSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadInputError } from '../core/errors.js';
import { makePrivateDir, writePrivateFile } from './private-files.js';

const isRoot = process.geteuid?.() === 0;
let scratch: string;
let target: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-private-files-'));
  target = join(scratch, 'target');
  writeFileSync(target, 'untouched\n');
  chmodSync(target, 0o644);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const untouched = () => {
  expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  expect(statSync(target).mode & 0o777).toBe(0o644);
};

describe.skipIf(process.platform === 'win32')('writePrivateFile', () => {
  it('writes a new file 0600, and makes an existing one of this user’s 0600', () => {
    const path = join(scratch, 'new');
    writePrivateFile(path, 'a');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    chmodSync(path, 0o644);
    writePrivateFile(path, 'b', 'a');
    expect(readFileSync(path, 'utf8')).toBe('ab');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it.each(['w', 'a', 'wx'] as const)('refuses a symbolic link (%s), writing nothing through it', (flag) => {
    const link = join(scratch, `link-${flag}`);
    symlinkSync(target, link);
    expect(() => writePrivateFile(link, 'planted', flag)).toThrow(flag === 'wx' ? /EEXIST/ : /is a symbolic link/);
    untouched();
  });

  it('writes texts given one by one as they come, over what the file held, and refuses a link for them too', () => {
    const path = join(scratch, 'pieces');
    writeFileSync(path, 'an older and longer text\n');
    const pieces = function* () {
      for (let i = 0; i < 3; i++) yield `piece ${i}\n`;
    };
    writePrivateFile(path, pieces());
    expect(readFileSync(path, 'utf8')).toBe('piece 0\npiece 1\npiece 2\n');
    const link = join(scratch, 'link-pieces');
    symlinkSync(target, link);
    expect(() => writePrivateFile(link, pieces())).toThrow(/is a symbolic link/);
    untouched();
  });

  it('refuses a hard link to another file', () => {
    const link = join(scratch, 'hard');
    linkSync(target, link);
    expect(() => writePrivateFile(link, 'planted')).toThrow(/has other names \(hard links\)/);
    untouched();
  });

  it.skipIf(!isRoot)('refuses a file another user owns', () => {
    const theirs = join(scratch, 'theirs');
    writeFileSync(theirs, 'theirs\n');
    chmodSync(theirs, 0o644);
    chownSync(theirs, 65534, 65534);
    expect(() => writePrivateFile(theirs, 'planted')).toThrow(BadInputError);
    expect(readFileSync(theirs, 'utf8')).toBe('theirs\n');
    expect(statSync(theirs).mode & 0o777).toBe(0o644);
  });
});

describe.skipIf(process.platform === 'win32')('makePrivateDir', () => {
  it('creates the data dir and its own subdir 0700, and narrows an existing subdir to 0700', () => {
    const data = join(scratch, 'data', 'deeper');
    makePrivateDir(join(data, 'runs'), { holdwatchs: true });
    expect(statSync(data).mode & 0o777).toBe(0o700);
    chmodSync(join(data, 'runs'), 0o755);
    makePrivateDir(join(data, 'runs'), { holdwatchs: true });
    expect(statSync(join(data, 'runs')).mode & 0o777).toBe(0o700);
  });

  it('refuses a subdir that is a link, chmodding nothing through it', () => {
    const data = join(scratch, 'data-with-link');
    mkdirSync(data, { mode: 0o700 });
    const dir = join(scratch, 'linked-to');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    symlinkSync(dir, join(data, 'runs'));
    expect(() => makePrivateDir(join(data, 'runs'), { holdwatchs: true })).toThrow(/is not a directory \(a link or a file\)/);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
  });

  it.skipIf(!isRoot)('refuses a subdir another user owns', () => {
    const data = join(scratch, 'data-with-theirs');
    mkdirSync(join(data, 'runs'), { recursive: true, mode: 0o700 });
    chmodSync(data, 0o700);
    chownSync(join(data, 'runs'), 65534, 65534);
    expect(() => makePrivateDir(join(data, 'runs'), { holdwatchs: true })).toThrow(/belongs to uid 65534/);
  });
});
