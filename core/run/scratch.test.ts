import { describe, expect, it } from 'vitest';
import { scratchOf } from './scratch.js';

describe('scratchOf', () => {
  it("marks the runners' own scratch and anonymous temp files", () => {
    expect(scratchOf({ path: '/tmp/go-build3927993249/b001/k6console.test', deleted: false })).toBe("go build's work dir");
    expect(scratchOf({ path: '/tmp/bats-run-Xy12ab/suite/1/out', deleted: false })).toBe("bats's run dir");
    expect(scratchOf({ path: '/tmp/#1234567', deleted: true })).toBe('an anonymous temp file (no name to delete)');
  });

  it('leaves the files tests make alone', () => {
    expect(scratchOf({ path: '/tmp/pytest-of-root/pytest-3/test_a0/data.db', deleted: true })).toBeNull();
    expect(scratchOf({ path: '/tmp/TestServer2537943436/001/readme', deleted: false })).toBeNull();
    expect(scratchOf({ path: '/tmp/#notes', deleted: true })).toBeNull();
    expect(scratchOf({ path: '/tmp/#1234567', deleted: false })).toBeNull(); // a file really named so
  });
});
