import { describe, expect, it } from 'vitest';
import { scanWorkerArguments } from '../../electron/worker-args.js';

describe('scanWorkerArguments', () => {
  it('is null for the app itself, packaged or not', () => {
    expect(scanWorkerArguments(['C:\\Program Files\\holdwatch\\holdwatch.exe'])).toBeNull();
    expect(scanWorkerArguments(['/usr/bin/electron', '/src/holdwatch', '--inspect'])).toBeNull();
  });

  it('finds the pipe and token after `scan-worker`, with or without the app dir before it', () => {
    expect(scanWorkerArguments(['holdwatch.exe', 'scan-worker', '--pipe', '\\\\.\\pipe\\holdwatch-1', '--token', 'ab12'])).toEqual({
      pipe: '\\\\.\\pipe\\holdwatch-1',
      token: 'ab12',
    });
    expect(scanWorkerArguments(['electron', '/src/holdwatch', 'scan-worker', '--token', 'ab12'])).toEqual({ pipe: undefined, token: 'ab12' });
    expect(scanWorkerArguments(['holdwatch.exe', 'scan-worker', '--pipe', 'p', '--token', 'ab12', '--host-pid', '4242'])).toEqual({
      pipe: 'p',
      token: 'ab12',
      hostPid: '4242',
    });
  });
});
