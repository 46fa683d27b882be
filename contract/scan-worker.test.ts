// The worker's processExtras on the wire: a request or a result that is not the contract is refused
// by its schema (the worker stops serving such a host; the host rejects such a result).
import { describe, expect, it } from 'vitest';
import { MAX_EXTRAS_HANDLES, WORKER_RESULTS, WorkerRequestSchema } from './scan-worker.js';

const extras = {
  cwd: '/srv/app',
  cwdUnreadableReason: null,
  handleCount: 12,
  handles: { 'fd 5': { access: { rights: ['write'], flags: 'O_WRONLY|O_APPEND', raw: '0102001' }, locks: ['FLOCK ADVISORY WRITE'] } },
};

describe('processExtras in the scanner worker contract', () => {
  it('takes a pid and a bounded list of short handle names', () => {
    const request = { type: 'processExtras', id: 7, pid: 42, handles: ['fd 5'] };
    expect(WorkerRequestSchema.parse(request)).toEqual(request);
    expect(WorkerRequestSchema.safeParse({ ...request, handles: undefined }).success).toBe(false);
    expect(WorkerRequestSchema.safeParse({ ...request, handles: 'fd 5' }).success).toBe(false);
    expect(WorkerRequestSchema.safeParse({ ...request, handles: [''] }).success).toBe(false);
    expect(WorkerRequestSchema.safeParse({ ...request, handles: ['x'.repeat(65)] }).success).toBe(false);
    expect(WorkerRequestSchema.safeParse({ ...request, handles: Array(MAX_EXTRAS_HANDLES + 1).fill('fd 5') }).success).toBe(false);
    expect(WorkerRequestSchema.safeParse({ ...request, pid: -1 }).success).toBe(false);
  });

  it('answers ProcessExtras or null; anything else is refused', () => {
    const result = WORKER_RESULTS.processExtras;
    expect(result.parse(extras)).toEqual(extras);
    expect(result.parse(null)).toBeNull();
    expect(
      result.parse({ ...extras, cwd: null, cwdUnreadableReason: 'EACCES', handleCount: null, handles: { 'fd 5': { access: null, locks: [] } } }),
    ).toBeTruthy();
    expect(result.safeParse({ ...extras, handleCount: -1 }).success).toBe(false);
    expect(result.safeParse({ ...extras, handles: { 'fd 5': { access: { rights: ['execute'], flags: '', raw: '' }, locks: [] } } }).success).toBe(false);
    expect(result.safeParse({ ...extras, handles: { 'fd 5': { access: null } } }).success).toBe(false);
    expect(result.safeParse({ cwd: '/srv/app', handleCount: 1, handles: {} }).success).toBe(false); // no cwdUnreadableReason
  });
});
