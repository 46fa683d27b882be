// The desktop app's directory argument, as Explorer's context menu, a terminal, a second instance and
// Playwright's Electron launcher pass it (electron/dir-argument.ts; the app itself cannot start here).
import { describe, expect, it } from 'vitest';
import { dirArgumentOf } from '../../electron/dir-argument.js';

const packagedWin = { packaged: true, workingDirectory: 'C:\\Users\\me', platform: 'win32' as const };
const unpackagedLinux = { packaged: false, workingDirectory: '/home/me/src', platform: 'linux' as const };

describe('dirArgumentOf', () => {
  it('takes the directory Explorer passes ("%V"), a drive root included', () => {
    const exe = 'C:\\Users\\me\\AppData\\Local\\Programs\\holdwatch\\holdwatch.exe';
    expect(dirArgumentOf([exe, 'C:\\work\\my project'], packagedWin)).toBe('C:\\work\\my project');
    // "C:\" arrives as C:" (CommandLineToArgvW reads \" as a quote)
    expect(dirArgumentOf([exe, 'C:"'], packagedWin)).toBe('C:\\');
    expect(dirArgumentOf([exe, 'D:\\builds\\'], packagedWin)).toBe('D:\\builds');
    expect(dirArgumentOf([exe, '\\\\server\\share\\ci'], packagedWin)).toBe('\\\\server\\share\\ci');
  });

  it('is null without a directory: the start screen', () => {
    expect(dirArgumentOf(['holdwatch.exe'], packagedWin)).toBeNull();
    expect(dirArgumentOf(['holdwatch.exe', '--enable-logging', '--'], packagedWin)).toBeNull();
    expect(dirArgumentOf(['holdwatch.exe', '  '], packagedWin)).toBeNull();
    expect(dirArgumentOf(['/usr/bin/electron', '/home/me/src/holdwatch'], unpackagedLinux)).toBeNull(); // `npm start`
    expect(dirArgumentOf(['/usr/bin/electron', '.'], unpackagedLinux)).toBeNull();
  });

  it('unpackaged, skips the app dir Electron runs, wherever its switches are', () => {
    expect(dirArgumentOf(['/usr/bin/electron', '/home/me/src/holdwatch', '/tmp/w'], unpackagedLinux)).toBe('/tmp/w');
    // Playwright's _electron.launch: its switches first (and `-r <loader>` when it finds Electron itself)
    const playwright = ['/x/electron', '-r', '/x/loader.js', '--no-sandbox', '--inspect=0', '--remote-debugging-port=0', '/src/holdwatch', '/tmp/w'];
    expect(dirArgumentOf(playwright, unpackagedLinux)).toBe('/tmp/w');
    expect(dirArgumentOf(['/x/electron', '--inspect=0', '--remote-debugging-port=0', '/tmp/w'], { ...unpackagedLinux, packaged: true })).toBe('/tmp/w');
  });

  it('never takes a Chromium switch or the scan worker’s arguments for a directory', () => {
    // Chromium adds its own switches to a second instance's argv.
    const second = ['holdwatch.exe', '--allow-file-access-from-files', '--original-process-start-time=13371337', 'C:\\w'];
    expect(dirArgumentOf(second, packagedWin)).toBe('C:\\w');
    expect(dirArgumentOf(['holdwatch.exe', 'scan-worker', '--pipe', '\\\\.\\pipe\\hw', '--token', 'ab', '--host-pid', '42'], packagedWin)).toBeNull();
    expect(dirArgumentOf(['electron', '/src/holdwatch', 'scan-worker', '--token', 'ab'], unpackagedLinux)).toBeNull();
    // After `--`, a dash is a name: a directory called -build.
    expect(dirArgumentOf(['holdwatch', '--', '-build'], { ...unpackagedLinux, packaged: true })).toBe('/home/me/src/-build');
  });

  it('resolves a relative directory against the working directory it is given (the second instance’s)', () => {
    expect(dirArgumentOf(['holdwatch.exe', '..\\other'], { ...packagedWin, workingDirectory: 'D:\\repo\\tests' })).toBe('D:\\repo\\other');
    expect(dirArgumentOf(['holdwatch.exe', '.'], { ...packagedWin, workingDirectory: 'D:\\repo' })).toBe('D:\\repo');
    expect(dirArgumentOf(['electron', 'app', 'build/tmp'], unpackagedLinux)).toBe('/home/me/src/build/tmp');
  });
});
