// Reveal in the file manager: a folder, never a file, is handed to xdg-open. A stand-in xdg-open
// (a real script first on PATH) records what it was given, instead of opening a window here.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revealInFileManager } from '../../dist/host/reveal.js';

let dir: string;
const savedPath = process.env.PATH;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-reveal-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'work'));
  writeFileSync(join(dir, 'work', 'a.log'), '');
  writeFileSync(join(dir, 'bin', 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${join(dir, 'opened.txt')}'\n`);
  chmodSync(join(dir, 'bin', 'xdg-open'), 0o755);
});

afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});

async function opened(): Promise<string[]> {
  // The stand-in runs detached; wait for its line.
  for (let i = 0; i < 100; i++) {
    try {
      return readFileSync(join(dir, 'opened.txt'), 'utf8').trim().split('\n');
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return [];
}

describe('revealInFileManager (Linux)', () => {
  it('opens the folder of a file, the folder itself for a folder, and the folder of a deleted file', async () => {
    process.env.PATH = `${join(dir, 'bin')}:${savedPath}`;
    await revealInFileManager(join(dir, 'work', 'a.log'), 'linux');
    await revealInFileManager(join(dir, 'work'), 'linux');
    await revealInFileManager(join(dir, 'work', 'gone.log'), 'linux');
    await expect.poll(async () => (await opened()).length).toBe(3);
    expect(await opened()).toEqual([join(dir, 'work'), join(dir, 'work'), join(dir, 'work')]);
  });

  it('refuses relative and vanished paths, and says so when there is no file manager', async () => {
    await expect(revealInFileManager('work/a.log', 'linux')).rejects.toThrow(/not an absolute path/);
    await expect(revealInFileManager(join(dir, 'nope', 'x'), 'linux')).rejects.toThrow(/no longer exist/);
    process.env.PATH = join(dir, 'empty-path');
    await expect(revealInFileManager(join(dir, 'work'), 'linux')).rejects.toThrow(/xdg-open is not installed/);
  });
});
