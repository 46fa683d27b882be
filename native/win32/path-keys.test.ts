// Handle names as Windows and Wine give them -> match key and display form; the drive table is
// re-read on its cadence and a changed table invalidates the keys computed with the old one.
import { describe, expect, it } from 'vitest';
import { computeKey, DosDevices, PathKeys } from './path-keys.js';

const WINDOWS = { 'C:': '\\Device\\HarddiskVolume3', 'S:': '\\??\\C:\\work' };

describe('computeKey', () => {
  it.each([
    // Windows: device names, mapped through the table.
    ['\\Device\\HarddiskVolume3\\work\\Repo\\a.txt', WINDOWS, 'C:\\WORK\\REPO\\A.TXT', 'C:\\work\\Repo\\a.txt'],
    // Wine: the object manager's DOS view.
    ['\\??\\Z:\\tmp\\x\\held.txt', {}, 'Z:\\TMP\\X\\HELD.TXT', 'Z:\\tmp\\x\\held.txt'],
    // Module file names come as DOS paths, sometimes verbatim.
    ['\\\\?\\C:\\work\\mod\\a.dll', WINDOWS, 'C:\\WORK\\MOD\\A.DLL', 'C:\\work\\mod\\a.dll'],
    ['Z:\\tmp\\x\\a.node', {}, 'Z:\\TMP\\X\\A.NODE', 'Z:\\tmp\\x\\a.node'],
    // SUBST: S:\x and C:\work\x are one place.
    ['S:\\x', WINDOWS, 'C:\\WORK\\X', 'S:\\x'],
    // A device no drive maps keeps its kernel form (a pipe, a volume without a letter).
    ['\\Device\\NamedPipe\\foo', WINDOWS, '\\DEVICE\\NAMEDPIPE\\FOO', '\\Device\\NamedPipe\\foo'],
  ])('%s', (name, devices, key, display) => {
    expect(computeKey(name, devices)).toEqual({ key, display });
  });
});

describe('DosDevices and PathKeys', () => {
  it('re-reads the table only after refreshMs, and a changed table re-keys every name', () => {
    let now = 0;
    let reads = 0;
    let table: Record<string, string> = { 'C:': '\\Device\\HarddiskVolume3' };
    const devices = new DosDevices(
      1000,
      () => now,
      () => (reads++, { ...table }),
    );
    const keys = new PathKeys(devices);
    keys.begin();
    expect(keys.keyOf('\\Device\\HarddiskVolume3\\a').key).toBe('C:\\A');
    now = 500;
    keys.begin();
    expect(reads).toBe(1);
    table = { 'D:': '\\Device\\HarddiskVolume3' };
    now = 1500;
    keys.begin();
    expect(reads).toBe(2);
    expect(keys.keyOf('\\Device\\HarddiskVolume3\\a').key).toBe('D:\\A');
    const version = devices.version;
    now = 3000;
    keys.begin();
    expect(devices.version).toBe(version); // same content: same version, keys kept
  });
});
