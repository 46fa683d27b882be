// The suite's one platform switch (host.ts): vitest on Windows runs node.exe natively, anywhere else
// under Wine; `underWine` is what the real-Windows-only tests skip on, so it must follow the platform.
import { describe, expect, it } from 'vitest';
import { host, pickWindowsHost, underWine } from './host.js';
import { msysPath, nativeHost } from './native-host.js';
import { wineHost } from './wine-host.js';

describe('the Windows host of the win32 suite', () => {
  it('is native on win32 and Wine on every other platform', () => {
    expect(pickWindowsHost('win32')).toBe(nativeHost);
    for (const platform of ['linux', 'darwin', 'freebsd'] as const) expect(pickWindowsHost(platform)).toBe(wineHost);
    expect([nativeHost.kind, wineHost.kind]).toEqual(['native', 'wine']);
  });

  it('underWine, the real-Windows-only tests skip condition, is true exactly when this host is Wine', () => {
    expect(host).toBe(pickWindowsHost(process.platform));
    expect(underWine).toBe(process.platform !== 'win32');
    expect(underWine).toBe(host.kind === 'wine');
  });

  it('spells paths the way its Windows processes take them', () => {
    expect(wineHost.toWindows('/tmp/a/b.txt')).toBe('Z:\\tmp\\a\\b.txt');
    const wine = { nodeExe: '', koffiBinary: '', env: { WINEPREFIX: '/cache/prefix' } };
    expect(wineHost.fromWindows('Z:\\tmp\\a\\b.txt', wine)).toBe('/tmp/a/b.txt');
    expect(wineHost.fromWindows('C:\\users\\me\\AppData\\x.jsonl', wine)).toBe('/cache/prefix/drive_c/users/me/AppData/x.jsonl');
    // Natively the test process and its children share one file system and one spelling.
    expect(nativeHost.toWindows('C:\\Users\\me\\x')).toBe('C:\\Users\\me\\x');
    expect(nativeHost.fromWindows('C:\\Users\\me\\x', wine)).toBe('C:\\Users\\me\\x');
    expect(msysPath('C:\\Users\\me\\x')).toBe('/c/Users/me/x');
    expect(nativeHost.spellings('D:\\w')).toEqual(['D:\\w', 'D:/w', '\\\\?\\D:\\w', '/d/w']);
    expect(wineHost.spellings('/tmp/w')).toEqual(['Z:\\tmp\\w', 'Z:/tmp/w', '\\\\?\\Z:\\tmp\\w', '/z/tmp/w', '/tmp/w']);
  });
});
