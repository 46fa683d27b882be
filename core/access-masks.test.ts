// Tables for core/access-masks.ts: GrantedAccess values as they appear in the system handle table.
import { describe, expect, it } from 'vitest';
import {
  decodeFileAccess,
  FILE_ALL_ACCESS,
  FILE_GENERIC_EXECUTE,
  FILE_GENERIC_READ,
  FILE_GENERIC_WRITE,
  formatFileAccess,
  type HandleKind,
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
