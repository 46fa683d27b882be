// Access in one shape for both platforms: Linux fdinfo flags (octal f_flags) and Windows GrantedAccess
// masks as real handles carry them, decoded to rights and the OS's own names.
import { describe, expect, it } from 'vitest';
import { linuxHandleAccess, shareModeOf, windowsHandleAccess, WINDOWS_SHARE_UNKNOWN } from './handle-access.js';

describe('linuxHandleAccess', () => {
  it('decodes the access mode and the flags fdinfo shows, on x86-64 and arm64', () => {
    // Python open(p, "a"): O_WRONLY|O_APPEND|O_CLOEXEC|O_LARGEFILE as a 64-bit kernel shows it.
    expect(linuxHandleAccess(0o2102001)).toEqual({ rights: ['write'], flags: 'O_WRONLY | O_APPEND | O_LARGEFILE | O_CLOEXEC', raw: '02102001' });
    expect(linuxHandleAccess(0o2100000)).toMatchObject({ rights: ['read'], flags: 'O_RDONLY | O_LARGEFILE | O_CLOEXEC' });
    expect(linuxHandleAccess(0o100002)).toMatchObject({ rights: ['read', 'write'], flags: 'O_RDWR | O_LARGEFILE' });
    expect(linuxHandleAccess(0o2300000).flags).toBe('O_RDONLY | O_LARGEFILE | O_DIRECTORY | O_CLOEXEC');
    // arm64 numbers O_DIRECTORY 040000 and O_LARGEFILE 0400000.
    expect(linuxHandleAccess(0o2440000, 'arm64').flags).toBe('O_RDONLY | O_LARGEFILE | O_DIRECTORY | O_CLOEXEC');
  });

  it('names the wider of overlapping flags once, O_PATH as no rights, and unknown bits in octal', () => {
    expect(linuxHandleAccess(0o4010001).flags).toBe('O_WRONLY | O_SYNC');
    expect(linuxHandleAccess(0o10001).flags).toBe('O_WRONLY | O_DSYNC');
    expect(linuxHandleAccess(0o20200002).flags).toBe('O_RDWR | O_TMPFILE');
    expect(linuxHandleAccess(0o12000000)).toMatchObject({ rights: [], flags: 'O_RDONLY | O_CLOEXEC | O_PATH' });
    expect(linuxHandleAccess(0o40000000 | 1).flags).toBe('O_WRONLY | 040000000');
  });

  it('hands back one shared object per value, so an unchanged row compares by identity', () => {
    expect(linuxHandleAccess(0o2102001)).toBe(linuxHandleAccess(0o2102001));
  });
});

describe('windowsHandleAccess', () => {
  it('decodes the masks real handles carry', () => {
    // open(p, 'r+') / a log file / SQLite: FILE_GENERIC_READ | FILE_GENERIC_WRITE.
    expect(windowsHandleAccess(0x0012019f, 'file')).toEqual({ rights: ['read', 'write'], flags: 'FILE_GENERIC_READ | FILE_GENERIC_WRITE', raw: '0x0012019f' });
    expect(windowsHandleAccess(0x00120089, 'file')).toMatchObject({ rights: ['read'], flags: 'FILE_GENERIC_READ' });
    expect(windowsHandleAccess(0x00120116, 'file')).toMatchObject({ rights: ['write'], flags: 'FILE_GENERIC_WRITE' });
    // Python's NamedTemporaryFile (O_TEMPORARY): DELETE on top of read and write.
    expect(windowsHandleAccess(0x0013019f, 'file')).toMatchObject({
      rights: ['read', 'write', 'delete'],
      flags: 'FILE_GENERIC_READ | FILE_GENERIC_WRITE | DELETE',
    });
    // A process's current directory: SYNCHRONIZE | FILE_TRAVERSE, which share checks count as read.
    expect(windowsHandleAccess(0x00100020, 'cwd')).toMatchObject({ rights: ['read'], flags: 'FILE_TRAVERSE | SYNCHRONIZE' });
    // Attributes only (a stat through a handle): no data access, takes no part in share checks.
    expect(windowsHandleAccess(0x00100080, 'file')).toMatchObject({ rights: [], flags: 'FILE_READ_ATTRIBUTES | SYNCHRONIZE' });
    expect(windowsHandleAccess(0x00100001, 'dir')).toMatchObject({ rights: ['read'], flags: 'FILE_LIST_DIRECTORY | SYNCHRONIZE' });
    expect(windowsHandleAccess(0x001f01ff, 'file')).toMatchObject({ rights: ['read', 'write', 'delete'], flags: 'FILE_ALL_ACCESS' });
  });

  it('counts unmapped generic rights and the top bit without sign trouble', () => {
    expect(windowsHandleAccess(0x80000000, 'file')).toMatchObject({ rights: ['read'], raw: '0x80000000' });
    expect(windowsHandleAccess(0xc0000000, 'file').rights).toEqual(['read', 'write']);
    expect(windowsHandleAccess(0x10000000, 'file').rights).toEqual(['read', 'write', 'delete']);
  });
});

describe('shareModeOf', () => {
  it('never guesses: unknown with a reason on Windows, none on Linux', () => {
    expect(shareModeOf('win32', { handle: '0x1a4' })).toEqual({ share: null, shareUnknownReason: WINDOWS_SHARE_UNKNOWN });
    expect(shareModeOf('win32', { handle: null }).shareUnknownReason).toMatch(/mapped image/);
    expect(shareModeOf('linux', { handle: 'fd 3' }).shareUnknownReason).toMatch(/^Linux has no share modes/);
  });
});
