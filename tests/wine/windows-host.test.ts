// The suite's one platform switch (host.ts): vitest on Windows runs node.exe natively, anywhere else
// under Wine; `underWine` is what the real-Windows-only tests skip on, so it must follow the platform.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
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

// The native host's stdio is plain Node (pipes into the log files), so it runs here with this node: what
// only Windows can show of it (windowsHide's own console, Ctrl-C, taskkill) waits for a Windows runner.
describe('the native host, its portable part', () => {
  it("feeds a child's stdout and stderr through pipes into its log files, all of it by the time flushed resolves", async () => {
    const scratch = nativeHost.makeScratch('holdwatch-native-host-');
    try {
      const logs = { out: join(scratch, 'c.out'), err: join(scratch, 'c.err') };
      const env = { nodeExe: process.execPath, koffiBinary: '', env: process.env };
      const script =
        "process.stdout.write('o'.repeat(200000)); console.error('to stderr'); process.stdin.on('end', () => console.log('stdin at EOF')).resume()";
      const started = nativeHost.spawnNode(env, ['-e', script], logs);
      expect(readFileSync(logs.err, 'utf8')).toBe(''); // there at once, as a test polling it expects
      const exited = new Promise((resolve) => started.child.once('exit', resolve));
      await started.flushed; // alone: it must mean the output is complete
      expect(readFileSync(logs.out, 'utf8')).toBe(`${'o'.repeat(200000)}stdin at EOF\n`);
      expect(readFileSync(logs.err, 'utf8')).toBe('to stderr\n');
      expect(await exited).toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
