import { describe, expect, it } from 'vitest';
import { loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { makeRedactor, redactRecord } from './redact.js';

describe('makeRedactor', () => {
  const win = makeRedactor({ home: 'C:\\Users\\alice', user: 'alice' });
  const posix = makeRedactor({ home: '/home/alice', user: 'alice' });

  it('replaces a Windows home in every spelling a record carries', () => {
    expect(win('C:\\Users\\alice\\src\\x.py')).toBe('~\\src\\x.py');
    expect(win('c:\\users\\ALICE\\src')).toBe('~\\src');
    expect(win(`'C:\\\\Users\\\\alice\\\\AppData\\\\x'`)).toBe(`'~\\\\AppData\\\\x'`);
    expect(win('C:/Users/alice/src')).toBe('~/src');
    expect(win('/c/Users/alice/src and /cygdrive/c/Users/alice')).toBe('~/src and ~');
  });

  it('replaces a POSIX home on Linux and macOS layouts', () => {
    expect(posix('/home/alice/src')).toBe('~/src');
    expect(posix('/Users/alice/Library')).toBe('~/Library');
    expect(posix('cd /home/alice && ls')).toBe('cd ~ && ls');
  });

  it('replaces the user name as a word, never inside another word', () => {
    expect(posix('owner alice, uid 1000')).toBe('owner <user>, uid 1000');
    expect(posix('DESKTOP-1\\alice')).toBe('DESKTOP-1\\<user>');
    expect(posix('/tmp/pytest-of-alice/x')).toBe('/tmp/pytest-of-<user>/x');
    expect(posix('malice alice2 alices _alice_ Alicea')).toBe('malice alice2 alices _alice_ Alicea');
    expect(posix('/home/alicebob/x')).toBe('/home/alicebob/x');
  });

  it('replaces the 8.3 short form CI prints for a long user name', () => {
    const ci = makeRedactor({ home: 'C:\\Users\\runneradmin', user: 'runneradmin' });
    expect(ci('C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\x')).toBe('~\\AppData\\Local\\Temp\\x');
    expect(ci('C:\\Users\\runneradmin\\a')).toBe('~\\a');
  });
});

describe('redactRecord', () => {
  it('leaves no trace of the home or the user anywhere in the record, and keeps words that contain the name', () => {
    const record = loadRunRecord('pytest-winerror32');
    const before = JSON.stringify(record);
    expect(before).toMatch(/alice/i);
    const redacted = redactRecord(record, { home: 'C:\\Users\\alice', user: 'alice' });
    const after = JSON.stringify(redacted);
    expect(after.replace(/malice/g, '')).not.toMatch(/alice/i);
    expect(after).toContain('test_rejects_malice_payload');
    expect(redacted.cwd).toBe('~\\src\\bridge');
    expect(redacted.holders[0]?.user).toBe('DESKTOP-7Q2LK\\<user>');
    expect(redacted.failures[0]?.text).toContain(`'~\\\\AppData\\\\Local\\\\Temp\\\\pytest-of-<user>\\\\pytest-12\\\\bridge0\\\\demo.nd'`);
    // Structure and non-string values are untouched; the input is not mutated.
    expect(redacted.holders.map((h) => h.pid)).toEqual(record.holders.map((h) => h.pid));
    expect(JSON.stringify(record)).toBe(before);
  });

  it('leaves out the raw bytes of a path, which hold the home where no text rewrite reaches', () => {
    const record = loadRunRecord('pytest-winerror32');
    const bytes = Buffer.from('/home/alice/w/bad-\xff.log', 'latin1').toString('base64');
    const withBytes = { ...record, leftovers: [{ path: '/home/alice/w/bad-\uFFFD.log', pathBytesBase64: bytes, createdDuring: null }] };
    const redacted = redactRecord(withBytes, { home: '/home/alice', user: 'alice' });
    expect(redacted.leftovers).toEqual([{ path: '~/w/bad-\uFFFD.log', createdDuring: null }]);
  });
});
