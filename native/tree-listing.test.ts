// The leftovers' listing on a real tree: what appeared after the snapshot, and nothing that was there.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listNewEntries, snapshotTree } from './tree-listing.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hw-tree-'));
  mkdirSync(join(root, 'old', 'deep'), { recursive: true });
  writeFileSync(join(root, 'old', 'deep', 'a.txt'), '');
  writeFileSync(join(root, 'ab'), '');
  symlinkSync('/', join(root, 'to-root'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const newPaths = (snapshot: ReturnType<typeof snapshotTree>) =>
  listNewEntries(snapshot)
    .map((e) => [e.path.slice(root.length), e.isDirectory] as const)
    .sort();

describe('snapshotTree / listNewEntries', () => {
  it('lists nothing when nothing changed', () => {
    expect(newPaths(snapshotTree(root))).toEqual([]);
  });

  it('lists new files and dirs at any depth, each once, and what a new dir holds', () => {
    const snapshot = snapshotTree(root);
    writeFileSync(join(root, 'old', 'deep', 'b.txt'), '');
    mkdirSync(join(root, 'new', 'inner'), { recursive: true });
    writeFileSync(join(root, 'new', 'inner', 'c.txt'), '');
    expect(newPaths(snapshot)).toEqual([
      ['/new', true],
      ['/new/inner', true],
      ['/new/inner/c.txt', false],
      ['/old/deep/b.txt', false],
    ]);
  });

  it('tells names apart by where they are, not only by what they are called', () => {
    const snapshot = snapshotTree(root);
    // The same names, moved: "a"/"b" is not "ab", and deep/a.txt is not old/a.txt.
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'b'), '');
    writeFileSync(join(root, 'old', 'a.txt'), '');
    expect(newPaths(snapshot)).toEqual([
      ['/a', true],
      ['/a/b', false],
      ['/old/a.txt', false],
    ]);
  });

  it('does not follow a symlink, and gives a new birth (or change) time to what is new', () => {
    const snapshot = snapshotTree(root);
    const before = Date.now();
    writeFileSync(join(root, 'fresh'), '');
    const [fresh] = listNewEntries(snapshot);
    expect(fresh?.path).toBe(join(root, 'fresh'));
    // The filesystem's coarse clock may stamp a little behind Date.now().
    expect(fresh!.createdAtMs).toBeGreaterThan(before - 1000);
  });

  it('a root that is gone lists nothing', () => {
    const snapshot = snapshotTree(root);
    rmSync(root, { recursive: true });
    expect(listNewEntries(snapshot)).toEqual([]);
  });
});
