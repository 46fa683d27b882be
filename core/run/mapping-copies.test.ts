import { expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import { withoutMappingCopies, type LedgerRow } from './holder-ledger.js';

function row(kind: Holder['kind'], lastSeenAtMs: number, { pid = 10, path = '/w/t/history.db', blocked = false } = {}): LedgerRow {
  const holder: Holder = {
    pid,
    ppid: 1,
    processStartedAtMs: 5,
    processName: 'history.test',
    commandLine: 'history.test -test.v',
    user: 'u',
    kind,
    path,
    deleted: true,
    handle: kind === 'file' ? 'fd 7' : null,
    watchedDir: '/w',
  };
  return { key: `${kind}-${pid}-${path}`, holder, member: null, firstSeenAtMs: 100, firstScanStartedAtMs: 100, lastSeenAtMs, goneAtMs: null, blocked };
}

const kinds = (rows: readonly LedgerRow[]) => rows.map((r) => `${r.holder.kind} ${r.holder.pid} ${r.holder.path}`);

it('one leak, one row: a database mapped and open in one process reads as its descriptor', () => {
  expect(kinds(withoutMappingCopies([row('file', 900), row('mmap', 900)]))).toEqual(['file 10 /w/t/history.db']);
});

it('keeps a mapping that outlived its descriptor, one of another process or file, and one a failure met alone', () => {
  // A memmap whose file was closed: on Windows the mapped view alone still holds the file.
  expect(kinds(withoutMappingCopies([row('file', 400), row('mmap', 900)]))).toEqual(['file 10 /w/t/history.db', 'mmap 10 /w/t/history.db']);
  expect(kinds(withoutMappingCopies([row('file', 900), row('mmap', 900, { pid: 11 })]))).toEqual(['file 10 /w/t/history.db', 'mmap 11 /w/t/history.db']);
  expect(kinds(withoutMappingCopies([row('file', 900), row('mmap', 900, { path: '/w/t/other.db' })]))).toEqual([
    'file 10 /w/t/history.db',
    'mmap 10 /w/t/other.db',
  ]);
  expect(kinds(withoutMappingCopies([row('file', 900), row('mmap', 900, { blocked: true })]))).toEqual(['file 10 /w/t/history.db', 'mmap 10 /w/t/history.db']);
  expect(kinds(withoutMappingCopies([row('mmap', 900)]))).toEqual(['mmap 10 /w/t/history.db']);
});
