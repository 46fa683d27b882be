import { describe, expect, it } from 'vitest';
import { LINUX_CLOSE_REFUSAL, parseHandleValue, refusalToCloseHandle, refusalToCloseIn } from './close-policy.js';

const win = { ownPids: [100], platform: 'win32' as const };
const node = { pid: 2000, ppid: 1000, name: 'node.exe' };

describe('parseHandleValue', () => {
  it('reads the hex a scan prints and decimal, and refuses what no handle value can be', () => {
    expect(parseHandleValue('0x1a4')).toBe(0x1a4n);
    expect(parseHandleValue('0X1A4')).toBe(0x1a4n);
    expect(parseHandleValue('420')).toBe(420n);
    for (const bad of ['', '0', '0x0', '0x1a5', '-4', '1e3', 'fd 5', '0x', '0x1a4 ', '04', '0x10000000000000000'])
      expect(parseHandleValue(bad), bad).toBeNull();
  });
});

describe('refusalToCloseIn', () => {
  it('offers an ordinary process on Windows', () => {
    expect(refusalToCloseIn(node, null, win)).toBeNull();
  });
  it('refuses a protected process, by its protection (elevation will not help)', () => {
    expect(refusalToCloseIn(node, 'Antimalware, light', win)).toMatch(/protected process \(Antimalware, light\).*elevated or not/);
  });
  it('refuses holdwatch itself and Windows system processes', () => {
    expect(refusalToCloseIn({ ...node, pid: 100 }, null, win)).toMatch(/holdwatch itself/);
    expect(refusalToCloseIn({ ...node, name: 'csrss.exe' }, null, win)).toMatch(/system process/);
    expect(refusalToCloseIn({ ...node, pid: 4, name: 'System' }, null, win)).toMatch(/system process/);
  });
  it('is not offered on Linux, and says why', () => {
    expect(refusalToCloseIn(node, null, { ownPids: [], platform: 'linux' })).toBe(LINUX_CLOSE_REFUSAL);
    expect(LINUX_CLOSE_REFUSAL).toMatch(/ptrace/);
  });
});

describe('refusalToCloseHandle', () => {
  const seen = 'Z:\\tmp\\w\\locked.txt';
  it('closes only while the value names the path the user saw (case as Windows compares)', () => {
    expect(refusalToCloseHandle('0x1a4', 7, { path: seen, kind: 'file' }, seen)).toBeNull();
    expect(refusalToCloseHandle('0x1a4', 7, { path: seen.toUpperCase(), kind: 'file' }, seen)).toBeNull();
    expect(refusalToCloseHandle('0x1a4', 7, { path: 'Z:\\tmp\\w', kind: 'dir' }, 'Z:\\tmp\\w')).toBeNull();
  });
  it('refuses a value closed since, or reused for another file', () => {
    expect(refusalToCloseHandle('0x1a4', 7, null, seen)).toMatch(/no longer names a file under the watched dir.*nothing closed/);
    expect(refusalToCloseHandle('0x1a4', 7, { path: 'Z:\\tmp\\w\\other.txt', kind: 'file' }, seen)).toMatch(/now names .*other\.txt, not .*locked\.txt/);
  });
  it('refuses the current directory and what is no handle', () => {
    expect(refusalToCloseHandle('0x1a4', 7, { path: seen, kind: 'cwd' }, seen)).toMatch(/current directory.*end the process instead/);
    expect(refusalToCloseHandle('0x1a4', 7, { path: seen, kind: 'module' }, seen)).toMatch(/not an open handle/);
  });
});
