import { describe, expect, it } from 'vitest';
import { detectFailure } from './failure-line.js';
import { matchTeardownFailure, mayBeTeardownFailure } from './match-line.js';
import { NEAR_MISSES, SAMPLES } from '../../tests/fixtures/signatures/failure-samples.js';

describe('matchTeardownFailure on published failure lines', () => {
  it.each(SAMPLES.map((s) => [s.source, s] as const))('%s', (_source, sample) => {
    const failure = matchTeardownFailure(sample.line);
    expect(failure).toBeDefined();
    expect({ kind: failure!.kind, code: failure!.error?.code ?? null, by: failure!.source, path: failure!.path }).toEqual({
      kind: sample.kind,
      code: sample.code,
      by: sample.by,
      path: sample.path,
    });
    expect(failure!.line).toBe(sample.line);
  });
});

describe('lines that are not holder failures', () => {
  it.each(NEAR_MISSES.map((s) => [s.source, s.line] as const))('%s', (_source, line) => {
    expect(matchTeardownFailure(line)).toBeUndefined();
  });
});

describe('details', () => {
  it('names the OS error and whether a number was printed', () => {
    expect(matchTeardownFailure("PermissionError: [WinError 32] x: 'C:\\\\t\\\\a'")).toMatchObject({
      error: { system: 'win32', name: 'ERROR_SHARING_VIOLATION', code: 32 },
      classifiedBy: 'code',
      path: 'C:\\t\\a',
    });
    expect(matchTeardownFailure('remove C:\\t\\a: The process cannot access the file because another process has locked a portion of the file.')).toMatchObject(
      {
        kind: 'lock-violation',
        error: { system: 'win32', code: 33 },
        classifiedBy: 'message',
        source: 'go',
      },
    );
  });

  it('sees through colour codes and CRLF line ends', () => {
    const line = "\x1b[31mE       OSError: [Errno 39] Directory not empty: '/tmp/pytest-of-me/x'\x1b[0m\r";
    expect(matchTeardownFailure(line)).toMatchObject({ kind: 'directory-not-empty', path: '/tmp/pytest-of-me/x' });
  });

  it('tells Rust Win32 codes from colliding errno numbers by the text', () => {
    expect(matchTeardownFailure('Error: Access is denied. (os error 5)')).toMatchObject({ error: { system: 'win32', code: 5 } });
    expect(matchTeardownFailure('Error: Input/output error (os error 5)')).toBeUndefined();
    expect(matchTeardownFailure('Error: Device or resource busy (os error 16)')).toMatchObject({ kind: 'busy', error: { system: 'errno' } });
  });

  it('the pre-filter passes every sample (it may only ever reject non-failures)', () => {
    for (const s of SAMPLES) expect(mayBeTeardownFailure(s.line), s.source).toBe(true);
  });
});

describe('detectFailure: what the supervisor scans at once for', () => {
  it("Go's TempDir cleanup under Wine, and in a text no row knows (no code then)", () => {
    const wine = String.raw`    testing.go:1097: TempDir RemoveAll cleanup: remove C:\users\me\Temp\TestA1\001\a.log: Sharing violation.`;
    expect(detectFailure(wine)).toEqual({ kind: 'sharing-violation', code: 32, path: String.raw`C:\users\me\Temp\TestA1\001\a.log` });
    const unknown = String.raw`    testing.go:1231: TempDir RemoveAll cleanup: unlinkat C:\t\TestB2\001: Ein unbekannter Text.`;
    expect(detectFailure(unknown)).toEqual({ kind: 'cleanup-failed', code: null, path: String.raw`C:\t\TestB2\001` });
  });
});
