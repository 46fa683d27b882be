// The pytest plugin's side of the test-boundary channel, against the real listener
// (host/run/boundary-server.ts): each test's end waits for holdwatch's answer before the next test
// starts, unless the process lists its own holdings (HOLDWATCH_WATCHED); a wrong token is refused; a
// listener that never answers costs the suite one bounded wait.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BoundaryExit, BoundaryTestEnd } from '../../contract/boundary.js';
import { ProbeEventsParser } from '../../core/runners/probe-events.js';
import { BoundaryServer, type OnTestEnd } from '../../host/run/boundary-server.js';
import { fixture } from '../fixtures/runners/feed.js';

const PYTHON = '/usr/bin/python3'; // Debian's, which has python3-pytest (the pyenv python3 does not)
const PROBE_DIR = join(import.meta.dirname, '../../probes/python-runners');

/** What the channel says: a test's end by its name (the plugin never sends an exit stop). */
const said = (event: BoundaryTestEnd | BoundaryExit) => (event.type === 'test-end' ? event.name : 'exit');

let scratch: string;
let server: BoundaryServer | null = null;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-boundary-'));
});
afterEach(() => {
  server?.close();
  server = null;
  rmSync(scratch, { recursive: true, force: true });
});

/** pytest on the fixture suite (four tests, one skipped), its events file read back; resolves when it exits. */
function pytest(
  boundary: string,
  env: Record<string, string> = {},
  cwd = fixture('pytest'),
): Promise<{ status: number | null; pid: number; events: ReturnType<ProbeEventsParser['push']>['events'] }> {
  const events = join(scratch, 'events.jsonl');
  const child = spawn(PYTHON, ['-m', 'pytest', '-p', 'holdwatch_pytest', '-p', 'no:cacheprovider', '-q'], {
    cwd,
    env: { ...process.env, PYTHONPATH: PROBE_DIR, PYTHONDONTWRITEBYTECODE: '1', HOLDWATCH_EVENTS: events, HOLDWATCH_BOUNDARY: boundary, ...env },
    stdio: 'ignore',
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (status) => {
      const parser = new ProbeEventsParser();
      resolve({ status, pid: child.pid!, events: [...parser.push(readFileSync(events, 'utf8')).events, ...parser.end().events] });
    });
  });
}

/** The paths of `kind` that test `name`'s end listed as held. */
const listedAt = (seen: BoundaryTestEnd[], name: string, kind: string) =>
  seen
    .find((e) => e.name === name)
    ?.held?.filter((h) => h.kind === kind)
    .map((h) => h.path);

/** A listener that keeps every test end, and a suite dir and a watched dir of their own. */
async function listenWithSuiteDirs(): Promise<{ seen: BoundaryTestEnd[]; suite: string; watched: string; address: string }> {
  const seen: BoundaryTestEnd[] = [];
  const listening = await BoundaryServer.start(
    async (event) => void (event.type === 'test-end' && seen.push(event)),
    (error) => {
      throw error;
    },
  );
  const suite = join(scratch, 'suite');
  const watched = join(scratch, 'watched');
  mkdirSync(suite);
  mkdirSync(watched);
  server = listening;
  return { seen, suite, watched, address: listening.address };
}

describe('the test-boundary channel, pytest plugin to holdwatch', () => {
  it('every test end waits for the answer: the next test starts only after holdwatch has answered', async () => {
    const seen: { event: BoundaryTestEnd | BoundaryExit; pid: number; answeredAtMs: number }[] = [];
    const onTestEnd: OnTestEnd = async (event, pid) => {
      await new Promise((resolve) => setTimeout(resolve, 150)); // a slow scan
      seen.push({ event, pid, answeredAtMs: Date.now() });
    };
    server = await BoundaryServer.start(onTestEnd, (error) => {
      throw error;
    });
    const run = await pytest(server.address);
    expect(run.status).toBe(1); // the fixture suite has a failing body and a failing teardown
    const names = ['test_passes', 'test_fails_in_body', 'test_fails_in_teardown', 'test_skipped'].map((n) => `test_example.py::${n}`);
    // After the last test, the scopes its teardown ended: its module's, then the session's.
    expect(seen.map((s) => [said(s.event), s.event.type === 'test-end' ? (s.event.scope ?? 'test') : 'exit'])).toEqual([
      ...names.map((n) => [n, 'test']),
      ['test_example.py', 'file'],
      ['session', 'session'],
    ]);
    expect(seen.every((s) => s.pid === run.pid)).toBe(true);
    // The boundary carries the runner's own end of the test, as the events file has it.
    const ends = run.events.filter((e) => e.type === 'test-end');
    expect(seen.slice(0, names.length).map((s) => s.event.atMs)).toEqual(ends.map((e) => e.atMs));
    const starts = run.events.filter((e) => e.type === 'test-start');
    for (let i = 1; i < starts.length; i++) expect(starts[i]!.atMs).toBeGreaterThanOrEqual(seen[i - 1]!.answeredAtMs);
  });

  it('with the watched dirs named, each end carries what the process holds there, and nothing waits for an answer', async () => {
    const seen: BoundaryTestEnd[] = [];
    server = await BoundaryServer.start(
      async (event) => void (event.type === 'test-end' && seen.push(event)),
      (error) => {
        throw error;
      },
    );
    // The fixture suite's working directory is the watched dir: every list names it as the cwd.
    const run = await pytest(server.address, { HOLDWATCH_WATCHED: fixture('pytest') });
    expect(run.status).toBe(1);
    // No ack ever came: a client that waited for one would have stopped at the first end (2 s bound).
    expect(seen.map((e) => [e.name, e.scope ?? 'test'])).toEqual([
      ...['test_passes', 'test_fails_in_body', 'test_fails_in_teardown', 'test_skipped'].map((n) => [`test_example.py::${n}`, 'test']),
      ['test_example.py', 'file'],
      ['session', 'session'],
    ]);
    for (const event of seen) expect(event.held).toContainEqual({ kind: 'cwd', path: fixture('pytest'), fd: null, deleted: false });
  });

  it('says hello before its first test starts, so holdwatch reads what the process is while it surely runs', async () => {
    const hellos: { pid: number; atMs: number }[] = [];
    server = await BoundaryServer.start(
      async () => {},
      (error) => {
        throw error;
      },
      undefined,
      (pid) => hellos.push({ pid, atMs: Date.now() }),
    );
    const run = await pytest(server.address, { HOLDWATCH_WATCHED: fixture('pytest') });
    const firstStart = run.events.find((e) => e.type === 'test-start')!;
    expect(hellos.map((h) => h.pid)).toEqual([run.pid]);
    expect(hellos[0]!.atMs).toBeLessThanOrEqual(firstStart.atMs);
  });

  it('a file mapped under a watched dir, its descriptor closed, is listed as held by the mapping', async () => {
    const { seen, suite, watched, address } = await listenWithSuiteDirs();
    const mapped = join(watched, 'mapped.bin');
    writeFileSync(mapped, Buffer.alloc(4096, 1));
    writeFileSync(
      join(suite, 'test_maps.py'),
      `import mmap\nKEPT = []\ndef test_maps():\n    with open(${JSON.stringify(mapped)}, "rb") as f:\n        KEPT.append(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))\n`,
    );
    const run = await pytest(address, { HOLDWATCH_WATCHED: watched }, suite);
    expect(run.status).toBe(0);
    const end = seen.find((e) => e.name === 'test_maps.py::test_maps');
    expect(end?.held).toContainEqual({ kind: 'mmap', path: mapped, fd: null, deleted: false });
  });

  it('a mapping swapped for another of the same size between tests is listed as the new one, and an unmapped one not at all', async () => {
    const { seen, suite, watched, address } = await listenWithSuiteDirs();
    const [a, b] = [join(watched, 'a.bin'), join(watched, 'b.bin')];
    for (const file of [a, b]) writeFileSync(file, Buffer.alloc(4096, 1));
    writeFileSync(
      join(suite, 'test_swaps.py'),
      [
        'import mmap, os',
        'KEPT = []',
        'def mapped(path):',
        '    fd = os.open(path, os.O_RDONLY)',
        '    try:',
        '        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)',
        '    finally:',
        '        os.close(fd)',
        'def test_1_maps_a():',
        `    KEPT.append(mapped(${JSON.stringify(a)}))`,
        'def test_2_swaps_for_b():',
        '    KEPT.pop().close()',
        `    KEPT.append(mapped(${JSON.stringify(b)}))`,
        'def test_3_unmaps():',
        '    KEPT.pop().close()',
        '',
      ].join('\n'),
    );
    const run = await pytest(address, { HOLDWATCH_WATCHED: watched }, suite);
    expect(run.status).toBe(0);
    const mapsAt = (test: string) => listedAt(seen, `test_swaps.py::${test}`, 'mmap');
    expect(mapsAt('test_1_maps_a')).toEqual([a]);
    expect(mapsAt('test_2_swaps_for_b')).toEqual([b]);
    expect(mapsAt('test_3_unmaps')).toEqual([]);
  });

  it('a descriptor met outside the dirs is listed once its file moves in, or the number names a file there', async () => {
    // Guards the inventory's memory of descriptors it found outside: a file renamed in keeps its inode,
    // and a reused descriptor number may name the same inode by another path.
    const { seen, suite, watched, address } = await listenWithSuiteDirs();
    const outside = join(scratch, 'outside');
    mkdirSync(outside);
    const [kept, linked] = [join(outside, 'kept.txt'), join(outside, 'linked.txt')];
    const [moved, twin] = [join(watched, 'moved.txt'), join(watched, 'twin.txt')];
    writeFileSync(
      join(suite, 'test_moves.py'),
      [
        'import os',
        'KEPT = []',
        'def test_1_holds_outside():',
        `    KEPT.append(open(${JSON.stringify(kept)}, "w"))`,
        `    KEPT.append(open(${JSON.stringify(linked)}, "w"))`,
        'def test_2_moves_it_in():',
        `    os.rename(${JSON.stringify(kept)}, ${JSON.stringify(moved)})`,
        'def test_3_reopens_by_a_link_inside():',
        `    os.link(${JSON.stringify(linked)}, ${JSON.stringify(twin)})`,
        `    fd = os.open(${JSON.stringify(twin)}, os.O_WRONLY)`,
        '    os.dup2(fd, KEPT[1].fileno())',
        '    os.close(fd)',
        '',
      ].join('\n'),
    );
    const run = await pytest(address, { HOLDWATCH_WATCHED: watched }, suite);
    expect(run.status).toBe(0);
    const filesAt = (test: string) => listedAt(seen, `test_moves.py::${test}`, 'file')?.sort();
    expect(filesAt('test_1_holds_outside')).toEqual([]);
    expect(filesAt('test_2_moves_it_in')).toEqual([moved]);
    expect(filesAt('test_3_reopens_by_a_link_inside')).toEqual([moved, twin]);
  });

  it('a wrong token is refused: nothing reaches the run, and the suite goes on', async () => {
    const seen: string[] = [];
    server = await BoundaryServer.start(
      async (event) => void seen.push(said(event)),
      () => {},
    );
    const forged = server.address.replace(/:[0-9a-f]+$/, ':' + '0'.repeat(48));
    const run = await pytest(forged);
    expect(run.status).toBe(1);
    expect(seen).toEqual([]);
    expect(run.events.filter((e) => e.type === 'test-end')).toHaveLength(4);
  });

  it('a scan slower than the wait: the plugin says it went on, and sends the next ends without waiting', async () => {
    const seen: { name: string; waits: boolean }[] = [];
    const wentOn: { name: string; pid: number; afterEndMs: number }[] = [];
    server = await BoundaryServer.start(
      async (event) => {
        if (event.type !== 'test-end') return;
        seen.push({ name: event.name, waits: event.waits !== false });
        // The first end's scan is slow; the rest are quick.
        await new Promise((resolve) => setTimeout(resolve, seen.length === 1 ? 1500 : 1));
      },
      (error) => {
        throw error;
      },
      undefined,
      undefined,
      (ended, pid, atMs) => wentOn.push({ name: ended.name, pid, afterEndMs: atMs - ended.atMs }),
    );
    const run = await pytest(server.address, { HOLDWATCH_BOUNDARY_WAIT_MS: '200' });
    await server.settle(10_000); // the ends queued behind the slow scan
    expect(run.status).toBe(1);
    const names = ['test_passes', 'test_fails_in_body', 'test_fails_in_teardown', 'test_skipped'].map((n) => `test_example.py::${n}`);
    // Every end still reached holdwatch, the session's last.
    expect(seen.map((s) => s.name)).toEqual([...names, 'test_example.py', 'session']);
    expect(wentOn).toEqual([{ name: names[0], pid: run.pid, afterEndMs: expect.any(Number) }]);
    expect(wentOn[0]!.afterEndMs).toBeGreaterThanOrEqual(200);
    // While the first answer was owed, ends went without waiting.
    expect(seen[0]!.waits).toBe(true);
    expect(seen.slice(1).some((s) => !s.waits)).toBe(true);
  });

  it('a listener that never answers costs one bounded wait; the ends after it go without waiting', async () => {
    const seen: string[] = [];
    server = await BoundaryServer.start(
      (event) => {
        seen.push(said(event));
        return new Promise(() => {}); // never scanned, never answered
      },
      () => {},
    );
    const run = await pytest(server.address);
    expect(run.status).toBe(1);
    expect(seen).toEqual(['test_example.py::test_passes']);
    expect(run.events.filter((e) => e.type === 'test-end')).toHaveLength(4);
  });

  it('with no listener at all the suite runs as without holdwatch', async () => {
    const closed = await BoundaryServer.start(
      async () => {},
      () => {},
    );
    const address = closed.address;
    closed.close();
    const run = await pytest(address);
    expect(run.status).toBe(1);
    expect(run.events.filter((e) => e.type === 'test-end')).toHaveLength(4);
  });
});
