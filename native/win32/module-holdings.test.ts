// What a system scan asks of each process's module and mapped-view lists. Each list has its own re-read
// period (process-reader.ts keeps the lists); between those, a system scan gives the last one's answer
// without asking anything per process, and anything that could change that answer makes it ask again.
// After the first system scan, a due list is re-read between scans, never by the scan itself.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SpelledDirs } from './dir-aliases.js';
import type { RawHolding } from './holder-building.js';
import { ModuleHoldings } from './module-holdings.js';
import { DosDevices, PathKeys } from './path-keys.js';
import type { ProcessIdentities, ProcessIdentity } from './process-identities.js';
import type { ProcessReader } from './process-reader.js';
import { ERROR_ACCESS_DENIED, Win32Error } from './win-errors.js';

const MODULE_REFRESH_MS = 2000;
const keys = new PathKeys(
  new DosDevices(
    5000,
    () => 0,
    () => ({ 'C:': '\\Device\\HarddiskVolume3' }),
  ),
);
keys.begin();
const spelled = new SpelledDirs();
const dirs = spelled.of(
  [{ input: 'C:\\proj', display: 'C:\\proj', matchPrefix: '\\Device\\HarddiskVolume3\\proj', caseInsensitive: true }],
  keys.tableVersion,
  (name) => keys.keyOf(name),
);

const identity = (pid: number): ProcessIdentity => ({ pid, createTime: 1n, ppid: 1, imageName: 'node.exe', denied: null, protection: null });

/** A reader that keeps each list as ProcessReader does (re-read when its period is over) and counts every question. */
class CountingReader {
  asked = 0;
  /** Lists read from the process, not answered from the last read. */
  reads = 0;
  readonly failing = new Map<number, Error>();
  private readonly lists = new Map<string, { names: readonly string[]; atMs: number }>();

  constructor(private readonly files: Map<number, string[]>) {}

  modules(pid: number, _createTime: bigint, refreshMs: number, nowMs: number): readonly string[] {
    return this.list(pid, 'modules', refreshMs, nowMs, () => this.files.get(pid) ?? []);
  }

  mappedFiles(pid: number, _createTime: bigint, refreshMs: number, nowMs: number): readonly string[] {
    return this.list(pid, 'mapped', refreshMs, nowMs, () => []);
  }

  listedAtMs(pid: number, list: 'modules' | 'mapped'): number {
    return this.lists.get(`${pid}:${list}`)?.atMs ?? -Infinity;
  }

  private list(pid: number, kind: string, refreshMs: number, nowMs: number, read: () => readonly string[]): readonly string[] {
    this.asked++;
    const known = this.lists.get(`${pid}:${kind}`);
    if (known && nowMs - known.atMs < refreshMs) return known.names;
    const failure = this.failing.get(pid);
    if (failure) throw failure;
    this.reads++;
    this.lists.set(`${pid}:${kind}`, { names: read(), atMs: nowMs });
    return this.lists.get(`${pid}:${kind}`)!.names;
  }
}

function setUp(pids: number[]) {
  const files = new Map(pids.map((pid) => [pid, [`C:\\tools\\node.exe`, `C:\\proj\\addon-${pid}.node`]]));
  const reader = new CountingReader(files);
  const identities = { version: 1, values: () => pids.map(identity).values(), get: (pid: number) => (pids.includes(pid) ? identity(pid) : undefined) };
  let clockMs = 0;
  const holdings = new ModuleHoldings(identities as unknown as ProcessIdentities, reader as unknown as ProcessReader, keys, MODULE_REFRESH_MS, () => clockMs);
  let scans = 0;
  const scan = (nowMs: number, wanted: ReadonlySet<number> | null = null) => {
    clockMs = nowMs;
    const found: RawHolding[] = [];
    const denied: [number, string][] = [];
    holdings.collect({ wanted, firstSystemScan: wanted === null && scans++ === 0, nowMs }, dirs, spelled.key, found, (pid, reason) =>
      denied.push([pid, reason]),
    );
    return { paths: found.map((h) => `${h.pid} ${h.kind} ${h.path}`), denied };
  };
  /** Lets the re-reads between scans run (one process a turn of the event loop). */
  const betweenScans = async () => {
    for (let turn = 0; turn <= pids.length; turn++) await nextTurn();
  };
  return { reader, files, identities, scan, betweenScans, holdings };
}

describe('ModuleHoldings', () => {
  it('asks no process anything again while none of its lists is due, and gives the same holdings', () => {
    const { reader, scan } = setUp([8, 12]);
    const first = scan(0);
    expect(first.paths).toEqual(['8 module C:\\proj\\addon-8.node', '12 module C:\\proj\\addon-12.node']);
    const asked = reader.asked;
    for (const nowMs of [100, 500, MODULE_REFRESH_MS - 1]) expect(scan(nowMs)).toEqual(first);
    expect(reader.asked).toBe(asked);
  });

  it('reads no due list in a system scan after the first: it is re-read between scans, and the next scan shows the change', async () => {
    const { reader, files, scan, betweenScans, holdings } = setUp([8, 12]);
    scan(0);
    files.set(8, [...files.get(8)!, 'C:\\proj\\late-8.node']);
    const reads = reader.reads;
    expect(scan(MODULE_REFRESH_MS).paths).not.toContain('8 module C:\\proj\\late-8.node');
    expect(reader.reads).toBe(reads);
    await betweenScans();
    expect(reader.reads).toBe(reads + 2); // both module lists; the mapped views are not due yet
    expect(scan(MODULE_REFRESH_MS + 1).paths).toContain('8 module C:\\proj\\late-8.node');
    const asked = reader.asked;
    await betweenScans();
    expect(scan(MODULE_REFRESH_MS + 2).paths).toContain('8 module C:\\proj\\late-8.node');
    expect(reader.asked).toBe(asked);
    holdings.dispose();
  });

  it('asks again after a focus scan, and after a process came or went', () => {
    const { reader, identities, scan } = setUp([8, 12]);
    scan(0);
    const askedAfter = (step: () => void) => {
      const before = reader.asked;
      step();
      return reader.asked - before;
    };
    expect(askedAfter(() => scan(1, new Set([8])))).toBe(2);
    expect(askedAfter(() => scan(2))).toBe(4);
    expect(askedAfter(() => scan(3))).toBe(0);
    identities.version++;
    expect(askedAfter(() => scan(4))).toBe(4);
  });

  it('says again who denied it without asking; a process whose re-read failed between scans is read by the next scan', async () => {
    const { reader, scan, betweenScans } = setUp([8, 12, 16]);
    reader.failing.set(12, new Win32Error('OpenProcess', ERROR_ACCESS_DENIED));
    const first = scan(0);
    expect(first.denied).toEqual([[12, 'OpenProcess: access denied']]);
    const asked = reader.asked;
    expect(scan(1)).toEqual(first);
    expect(reader.asked).toBe(asked);
    reader.failing.set(16, new Win32Error('EnumProcessModulesEx', ERROR_ACCESS_DENIED));
    expect(scan(MODULE_REFRESH_MS).denied).toEqual(first.denied);
    await betweenScans();
    expect(scan(MODULE_REFRESH_MS + 1).denied).toContainEqual([16, 'EnumProcessModulesEx: access denied']);
  });
});
