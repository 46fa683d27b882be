import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { goExecSourcesKey } from './go-exec-key.js';

const SOURCES = ['a.go', 'b.go'];
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setUp(): { probes: string; builds: string } {
  root = mkdtempSync(join(tmpdir(), 'hw-go-exec-key-'));
  const probes = join(root, 'probes');
  const builds = join(root, 'builds');
  mkdirSync(probes);
  writeFileSync(join(probes, 'a.go'), 'package main\n');
  writeFileSync(join(probes, 'b.go'), 'func main() {}\n');
  return { probes, builds };
}

const sha256Key = (probes: string) => {
  const hash = createHash('sha256');
  for (const source of SOURCES) hash.update(readFileSync(join(probes, source)));
  return hash.digest('hex').slice(0, 16);
};

describe('goExecSourcesKey', () => {
  it('is the sources’ sha256, then the remembered key while their stats are as they were', () => {
    const { probes, builds } = setUp();
    expect(goExecSourcesKey(builds, probes, SOURCES)).toBe(sha256Key(probes));
    // What the memo says is what a later start takes, without hashing: a key no hash gives shows it.
    const memoPath = join(builds, 'sources-key.json');
    const memo = JSON.parse(readFileSync(memoPath, 'utf8')) as { signature: string; key: string };
    writeFileSync(memoPath, JSON.stringify({ ...memo, key: '0123456789abcdef' }));
    expect(goExecSourcesKey(builds, probes, SOURCES)).toBe('0123456789abcdef');
  });

  it('hashes again once a source changed, whatever the memo says', () => {
    const { probes, builds } = setUp();
    const before = goExecSourcesKey(builds, probes, SOURCES);
    writeFileSync(join(probes, 'b.go'), 'func main() { println() }\n');
    utimesSync(join(probes, 'b.go'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const after = goExecSourcesKey(builds, probes, SOURCES);
    expect(after).toBe(sha256Key(probes));
    expect(after).not.toBe(before);
  });

  it('is the hash, and no error, where a file stands in the builds dir’s place', () => {
    const { probes, builds } = setUp();
    writeFileSync(builds, '');
    expect(goExecSourcesKey(builds, probes, SOURCES)).toBe(sha256Key(probes));
  });
});
