// A focus poll reads a process's maps again only when its address space moved since they held nothing
// under the dirs; a file mapped since is seen at the next poll, and a thorough scan reads them all.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { holdingsOf, walkPids, type MatchDir } from './fd-walk.js';
import { MapsMemo } from './maps-memo.js';
import { nodeProcReader, type ProcReader } from './proc-reader.js';

let dir: string;
let dirs: MatchDir[];
let mapper: ChildProcessWithoutNullStreams;

/** A python3 that holds nothing until told "map": then it maps a file under the dir and closes its fd. */
const MAPPER = `
import mmap, os, sys
print("ready", flush=True)
kept = []
for line in sys.stdin:
    with open(sys.argv[1], "rb") as f:
        kept.append(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
    print("done", flush=True)
`;

function said(word: string): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes(word)) return;
      mapper.stdout.off('data', onData);
      resolve();
    };
    mapper.stdout.on('data', onData);
  });
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'hw-maps-memo-')));
  dirs = [{ matchPrefix: dir, display: dir }];
  writeFileSync(join(dir, 'mapped.bin'), Buffer.alloc(64 * 1024, 1));
  mapper = spawn('python3', ['-c', MAPPER, join(dir, 'mapped.bin')]);
  await said('ready');
});

afterAll(() => {
  mapper.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Node's reader, counting the maps files it reads. */
function countingReader(): ProcReader & { mapsReads: number } {
  const reader = {
    ...nodeProcReader,
    mapsReads: 0,
    readFile(path: string, into: Parameters<ProcReader['readFile']>[1]) {
      if (/^\/proc\/\d+\/maps$/.test(path)) reader.mapsReads++;
      return nodeProcReader.readFile(path, into);
    },
  };
  return reader;
}

function focusWalk(maps: MapsMemo, options: { cover?: number[] } = {}) {
  const reader = countingReader();
  const rows = holdingsOf(walkPids([mapper.pid!], dirs, { maps, reader, ...options }));
  return { reads: reader.mapsReads, mmaps: rows.filter((r) => r.kind === 'mmap').map((r) => r.path) };
}

it.skipIf(process.platform !== 'linux')('skips the maps of a process that mapped nothing there and did not move; reads them once it maps a file', async () => {
  const maps = new MapsMemo();
  expect(focusWalk(maps)).toEqual({ reads: 1, mmaps: [] });
  expect(focusWalk(maps)).toEqual({ reads: 0, mmaps: [] });
  // A thorough scan of the whole system reads every process's maps, whatever is remembered.
  expect(focusWalk(maps, { cover: [mapper.pid!] })).toEqual({ reads: 1, mmaps: [] });

  const done = said('done');
  mapper.stdin.write('map\n');
  await done;
  expect(focusWalk(maps)).toEqual({ reads: 1, mmaps: [join(dir, 'mapped.bin')] });
  // Held under the dirs: read at every walk.
  expect(focusWalk(maps)).toEqual({ reads: 1, mmaps: [join(dir, 'mapped.bin')] });
});
