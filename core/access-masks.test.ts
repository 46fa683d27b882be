// Tables for core/access-masks.ts: GrantedAccess values as they appear in the system handle table,
// share modes as CreateFileW takes them, and which operations a held handle makes fail with WinError 32.
import { describe, expect, it } from 'vitest';
import {
  blockedOperations,
  blocks,
  decodeFileAccess,
  decodeShareMode,
  FILE_ALL_ACCESS,
  FILE_GENERIC_EXECUTE,
  FILE_GENERIC_READ,
  FILE_GENERIC_WRITE,
  FILE_SHARE_ALL,
  FILE_SHARE_DELETE,
  FILE_SHARE_READ,
  FILE_SHARE_WRITE,
  formatFileAccess,
  sharingViolation,
  type FileOperation,
  type HandleKind,
  type OpenHandle,
} from './access-masks.js';

describe('composite masks', () => {
  it('have the values winnt.h gives them', () => {
    expect([FILE_GENERIC_READ, FILE_GENERIC_WRITE, FILE_GENERIC_EXECUTE, FILE_ALL_ACCESS]).toEqual([0x120089, 0x120116, 0x1200a0, 0x1f01ff]);
  });

  it('make 0x0012019f an ordinary read-write file handle, not a pipe marker', () => {
    expect(FILE_GENERIC_READ | FILE_GENERIC_WRITE).toBe(0x0012019f);
    expect(formatFileAccess(0x0012019f)).toBe('FILE_GENERIC_READ | FILE_GENERIC_WRITE');
  });
});

describe('decodeFileAccess', () => {
  const cases: [mask: number, kind: HandleKind, names: string[]][] = [
    [0, 'file', []],
    [0x1, 'file', ['FILE_READ_DATA']],
    [0x1, 'directory', ['FILE_LIST_DIRECTORY']],
    [0x6, 'directory', ['FILE_ADD_FILE', 'FILE_ADD_SUBDIRECTORY']],
    [0x00100020, 'directory', ['FILE_TRAVERSE', 'SYNCHRONIZE']],
    [0x00100020, 'file', ['FILE_EXECUTE', 'SYNCHRONIZE']],
    [0x00010080, 'file', ['FILE_READ_ATTRIBUTES', 'DELETE']],
    [0x00120089, 'file', ['FILE_READ_DATA', 'FILE_READ_EA', 'FILE_READ_ATTRIBUTES', 'READ_CONTROL', 'SYNCHRONIZE']],
    [0x000c0040, 'directory', ['FILE_DELETE_CHILD', 'WRITE_DAC', 'WRITE_OWNER']],
    [0x80000000, 'file', ['GENERIC_READ']],
    [0xf0000000, 'file', ['GENERIC_ALL', 'GENERIC_EXECUTE', 'GENERIC_WRITE', 'GENERIC_READ']],
    [0x03000000, 'file', ['ACCESS_SYSTEM_SECURITY', 'MAXIMUM_ALLOWED']],
    [0x80400200, 'file', ['GENERIC_READ', '0x00400200']],
    [
      0xffffffff,
      'file',
      ['FILE_READ_DATA', 'FILE_WRITE_DATA', 'FILE_APPEND_DATA', 'FILE_READ_EA', 'FILE_WRITE_EA', 'FILE_EXECUTE', 'FILE_DELETE_CHILD']
        .concat(['FILE_READ_ATTRIBUTES', 'FILE_WRITE_ATTRIBUTES', 'DELETE', 'READ_CONTROL', 'WRITE_DAC', 'WRITE_OWNER', 'SYNCHRONIZE'])
        .concat(['ACCESS_SYSTEM_SECURITY', 'MAXIMUM_ALLOWED', 'GENERIC_ALL', 'GENERIC_EXECUTE', 'GENERIC_WRITE', 'GENERIC_READ', '0x0ce0fe00']),
    ],
  ];
  it.each(cases)('%i (%s)', (mask, kind, names) => {
    expect(decodeFileAccess(mask, kind)).toEqual(names);
  });
});

describe('formatFileAccess', () => {
  const cases: [mask: number, kind: HandleKind, text: string][] = [
    [0, 'file', '0'],
    [0x001f01ff, 'file', 'FILE_ALL_ACCESS'],
    [0x001f01ff, 'directory', 'FILE_ALL_ACCESS'],
    [0x00120089, 'file', 'FILE_GENERIC_READ'],
    [0x00130089, 'file', 'FILE_GENERIC_READ | DELETE'],
    [0x00120116, 'file', 'FILE_GENERIC_WRITE'],
    [0x001200a9, 'file', 'FILE_GENERIC_READ | FILE_GENERIC_EXECUTE'],
    [0x00100020, 'directory', 'FILE_TRAVERSE | SYNCHRONIZE'],
    [0x00100001, 'directory', 'FILE_LIST_DIRECTORY | SYNCHRONIZE'],
    [0x00110080, 'file', 'FILE_READ_ATTRIBUTES | DELETE | SYNCHRONIZE'],
    [0xc0000000, 'file', 'GENERIC_WRITE | GENERIC_READ'],
  ];
  it.each(cases)('%i (%s) -> %s', (mask, kind, text) => {
    expect(formatFileAccess(mask, kind)).toBe(text);
  });
});

describe('decodeShareMode', () => {
  const cases: [share: number, names: string[]][] = [
    [0, []],
    [FILE_SHARE_READ, ['FILE_SHARE_READ']],
    [FILE_SHARE_READ | FILE_SHARE_WRITE, ['FILE_SHARE_READ', 'FILE_SHARE_WRITE']],
    [FILE_SHARE_ALL, ['FILE_SHARE_READ', 'FILE_SHARE_WRITE', 'FILE_SHARE_DELETE']],
    [FILE_SHARE_DELETE | 0x10, ['FILE_SHARE_DELETE', '0x00000010']],
  ];
  it.each(cases)('%i -> %j', (share, names) => {
    expect(decodeShareMode(share)).toEqual(names);
  });
});

describe('blockedOperations', () => {
  const cases: [what: string, held: OpenHandle, blocked: FileOperation[]][] = [
    // CreateFileW(share 0), or libuv's UV_FS_O_EXLOCK: nobody else may touch the file.
    ['exclusive read-write open', { access: 0x0012019f, share: 0 }, ['delete', 'rename', 'write', 'read']],
    // Python open() / the CRT share read|write but not delete: the classic WinError 32 in teardown.
    ['CRT open for writing', { access: FILE_GENERIC_WRITE, share: FILE_SHARE_READ | FILE_SHARE_WRITE }, ['delete', 'rename']],
    ['CRT open for reading', { access: FILE_GENERIC_READ, share: FILE_SHARE_READ | FILE_SHARE_WRITE }, ['delete', 'rename']],
    // Node opens with full sharing: delete "succeeds" (delete pending) and nothing is refused.
    ['Node fs.open', { access: 0x0012019f, share: FILE_SHARE_ALL }, []],
    ['read shared only for reading', { access: FILE_GENERIC_READ, share: FILE_SHARE_READ }, ['delete', 'rename', 'write']],
    ['writer sharing read and delete', { access: FILE_GENERIC_WRITE, share: FILE_SHARE_READ | FILE_SHARE_DELETE }, ['write']],
    // A process's current directory: SYNCHRONIZE | FILE_TRAVERSE, shared read|write -> rmdir fails.
    ['current directory', { access: 0x00100020, share: FILE_SHARE_READ | FILE_SHARE_WRITE }, ['delete', 'rename']],
    // Only data and delete access take part in the share check.
    ['attributes only, share 0', { access: 0x00100080, share: 0 }, []],
    ['READ_CONTROL only, share 0', { access: 0x00020000, share: 0 }, []],
    // A handle holding DELETE demands that later openers share delete: the C runtime's opens do not.
    ['NamedTemporaryFile (O_TEMPORARY)', { access: 0x0013019f, share: FILE_SHARE_ALL }, ['write', 'read']],
    ['deleter sharing everything', { access: 0x00110080, share: FILE_SHARE_ALL }, ['write', 'read']],
    ['deleter sharing nothing', { access: 0x00110080, share: 0 }, ['delete', 'rename', 'write', 'read']],
    // Unmapped generic rights count as what they map to.
    ['GENERIC_READ, share read', { access: 0x80000000, share: FILE_SHARE_READ }, ['delete', 'rename', 'write']],
    ['GENERIC_ALL, share all', { access: 0x10000000, share: FILE_SHARE_ALL }, ['write', 'read']],
    ['GENERIC_WRITE, share all', { access: 0x40000000, share: FILE_SHARE_ALL }, []],
  ];
  it.each(cases)('%s', (_what, held, blocked) => {
    expect(blockedOperations(held)).toEqual(blocked);
    for (const op of ['delete', 'rename', 'write', 'read'] as const) expect(blocks(op, held)).toBe(blocked.includes(op));
  });
});

describe('sharingViolation', () => {
  const cases: [what: string, held: OpenHandle, opener: OpenHandle, violation: boolean][] = [
    ['two full-sharing writers', { access: FILE_GENERIC_WRITE, share: FILE_SHARE_ALL }, { access: FILE_GENERIC_WRITE, share: FILE_SHARE_ALL }, false],
    [
      'new writer refuses to share with an existing writer',
      { access: FILE_GENERIC_WRITE, share: FILE_SHARE_ALL },
      { access: FILE_GENERIC_READ, share: FILE_SHARE_READ },
      true,
    ],
    ['existing reader refuses writers', { access: FILE_GENERIC_READ, share: FILE_SHARE_READ }, { access: FILE_GENERIC_WRITE, share: FILE_SHARE_ALL }, true],
    ['attribute-only opener never conflicts', { access: 0x0012019f, share: 0 }, { access: 0x00100080, share: 0 }, false],
    ['execute counts as read', { access: FILE_GENERIC_EXECUTE, share: FILE_SHARE_ALL }, { access: FILE_GENERIC_WRITE, share: FILE_SHARE_WRITE }, true],
    ['append counts as write', { access: 0x00100004, share: FILE_SHARE_READ }, { access: FILE_GENERIC_READ, share: FILE_SHARE_READ }, true],
  ];
  it.each(cases)('%s', (_what, held, opener, violation) => {
    expect(sharingViolation(held, opener)).toBe(violation);
  });
});
