import { describe, expect, it } from 'vitest';
import type { Holder } from './holders.js';
import type { HoldwatchService } from './service.js';
import { holderKey } from './identity.js';
import { ContractError, dispatchRequest, parseServiceEvent, serviceClient, type ServiceTransport } from './service-client.js';
import { HOLDER_KINDS } from './enums.js';
import { encodeWatchColumns } from './watch-columns.js';

const holder: Holder = {
  pid: 42,
  ppid: 1,
  processStartedAtMs: 1000,
  processName: 'python3',
  commandLine: 'python3 -c ...',
  user: 'dev',
  kind: 'file',
  path: '/tmp/x/a.log',
  deleted: false,
  handle: 'fd 3',
  watchedDir: '/tmp/x',
};

/** Records what reached the service: a rejected request must never reach it. */
function recordingService(): HoldwatchService & { calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  // Typed loosely on purpose: the test looks only at what reached the service, not at answers.
  const record =
    (name: string) =>
    async (arg?: unknown): Promise<never> => {
      calls.push([name, arg]);
      const answers: Record<string, unknown> = { startWatch: { watchId: 'w1' }, startRun: { runId: 'r1' }, listRecentDirs: ['/tmp'] };
      return answers[name] as never;
    };
  const none = () => () => {};
  return {
    calls,
    scan: record('scan'),
    startWatch: record('startWatch'),
    stopWatch: record('stopWatch'),
    startRun: record('startRun'),
    stopRun: record('stopRun'),
    getProcessDetails: record('getProcessDetails'),
    endProcess: record('endProcess'),
    closeHandle: record('closeHandle'),
    captureLiveStack: record('captureLiveStack'),
    getHolderStacks: record('getHolderStacks'),
    exportReport: record('exportReport'),
    revealPath: record('revealPath'),
    listRecentDirs: record('listRecentDirs'),
    dirToOpen: record('dirToOpen'),
    defaultDir: record('defaultDir'),
    launchDir: record('launchDir'),
    listActiveRuns: record('listActiveRuns'),
    attachRun: record('attachRun'),
    elevateScanner: record('elevateScanner'),
    onWatchEvents: none,
    onWatchStatus: none,
    onRunEvent: none,
    onOpenDirRequest: none,
  };
}

describe('dispatchRequest (the host side)', () => {
  it('passes a valid request through and answers null for void', async () => {
    const service = recordingService();
    await expect(dispatchRequest(service, 'startWatch', { dirs: ['/tmp'] })).resolves.toEqual({ watchId: 'w1' });
    await expect(dispatchRequest(service, 'stopWatch', 'w1')).resolves.toBeNull();
    await expect(dispatchRequest(service, 'listRecentDirs', undefined)).resolves.toEqual(['/tmp']);
    await dispatchRequest(service, 'captureLiveStack', { pid: 42, startedAtMs: 1000 });
    expect(service.calls).toEqual([
      ['startWatch', { dirs: ['/tmp'] }],
      ['stopWatch', 'w1'],
      ['listRecentDirs', undefined],
      ['captureLiveStack', { pid: 42, startedAtMs: 1000 }],
    ]);
  });

  it.each([
    ['unknown method', 'rmrf', {}],
    ['inherited name', 'constructor', {}],
    ['method that is an event', 'onWatchEvents', {}],
    ['missing dirs', 'startWatch', {}],
    ['dirs not strings', 'startWatch', { dirs: [1] }],
    ['empty dirs', 'startWatch', { dirs: [] }],
    ['extra field', 'startWatch', { dirs: ['/tmp'], shell: 'rm -rf /' }],
    ['interval out of range', 'startWatch', { dirs: ['/tmp'], intervalMs: 1 }],
    ['run without command', 'startRun', { command: [], cwd: '/tmp', dirs: ['/tmp'] }],
    ['pid as text', 'getProcessDetails', '42'],
    ['negative pid', 'endProcess', { pid: -1, startedAtMs: 0 }],
    ['pid 0', 'endProcess', { pid: 0, startedAtMs: 0 }],
    ['live stack without start time', 'captureLiveStack', { pid: 42 }],
    ['live stack of pid 0', 'captureLiveStack', { pid: 0, startedAtMs: 1 }],
    ['live stack with a fractional pid', 'captureLiveStack', { pid: 4.2, startedAtMs: 1 }],
    ['live stack with an extra field', 'captureLiveStack', { pid: 42, startedAtMs: 1, tool: '/bin/sh' }],
    ['live stack as a bare pid', 'captureLiveStack', 42],
    ['unknown format', 'exportReport', { runId: 'r', format: 'exe', redact: false }],
    ['null request', 'scan', null],
    ['argument where none is taken', 'defaultDir', { evil: true }],
    ['attach without a run id', 'attachRun', ''],
    ['attach to a run id that is not text', 'attachRun', { runId: 'r1' }],
  ])('rejects %s with a ContractError and never calls the service', async (_, method, request) => {
    const service = recordingService();
    await expect(dispatchRequest(service, method, request)).rejects.toBeInstanceOf(ContractError);
    expect(service.calls).toEqual([]);
  });
});

describe('serviceClient (the front-end side)', () => {
  function transport(answer: unknown): ServiceTransport & { emit: (p: unknown) => void } {
    const listeners = new Set<(p: unknown) => void>();
    return {
      invoke: async () => answer,
      onEvent: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      emit: (p) => listeners.forEach((l) => l(p)),
    };
  }

  it('rejects a malformed result', async () => {
    const client = serviceClient(transport({ watchId: 7 }), () => {});
    await expect(client.startWatch({ dirs: ['/tmp'] })).rejects.toBeInstanceOf(ContractError);
    const runs = serviceClient(
      transport([{ runId: 'r1', command: ['pytest'], cwd: '/w', watched: ['/w'], startedAt: '2024-01-01T00:00:00.000Z', pid: -5 }]),
      () => {},
    );
    await expect(runs.listActiveRuns()).rejects.toBeInstanceOf(ContractError);
  });

  it('accepts a live stack or an unavailable answer, and rejects a stack without its text', async () => {
    const stack = {
      kind: 'stack',
      pid: 42,
      tool: 'gdb',
      threads: [{ id: 42, frames: [{ function: 'clock_nanosleep', module: '/lib/libc.so.6' }] }],
      rawText: '#0 ...',
      text: 'thread 42\n  clock_nanosleep\n',
    };
    const unavailable = { kind: 'unavailable', pid: 42, reason: 'no stack tool found on PATH (gdb, eu-stack)', nextStep: 'install gdb' };
    const request = { pid: 42, startedAtMs: 1 };
    await expect(serviceClient(transport(stack), () => {}).captureLiveStack(request)).resolves.toEqual(stack);
    await expect(serviceClient(transport(unavailable), () => {}).captureLiveStack(request)).resolves.toEqual(unavailable);
    await expect(serviceClient(transport({ ...stack, text: undefined }), () => {}).captureLiveStack(request)).rejects.toBeInstanceOf(ContractError);
    await expect(serviceClient(transport({ ...stack, tool: 'strace' }), () => {}).captureLiveStack(request)).rejects.toBeInstanceOf(ContractError);
  });

  it('delivers valid events and reports malformed ones without calling listeners', () => {
    const t = transport(null);
    const invalid: ContractError[] = [];
    const client = serviceClient(t, (e) => invalid.push(e));
    const seen: unknown[] = [];
    const off = client.onWatchEvents((watchId, events) => events.forEach((event) => seen.push([watchId, event.type, holderKey(event.holder)])));
    const columns = encodeWatchColumns([{ type: 'appeared', at: '2024-01-01T00:00:00.000Z', holder }]);
    t.emit({ channel: 'watch', watchId: 'w1', columns });
    t.emit({ channel: 'watch', watchId: 'w1', columns: { ...columns, kind: [HOLDER_KINDS.length] } });
    t.emit('garbage');
    t.emit({ channel: 'run', runId: 'r1', event: { type: 'output', stream: 'stdout', text: 'hi' } });
    off();
    t.emit({ channel: 'watch', watchId: 'w1', columns: encodeWatchColumns([{ type: 'gone', at: '2024-01-01T00:00:00.000Z', holder }]) });
    expect(seen).toEqual([['w1', 'appeared', '42/1000/file/fd 3//tmp/x/a.log']]);
    expect(invalid).toHaveLength(2);
    expect(invalid[0]).toBeInstanceOf(ContractError);
  });
});

describe('Scan as administrator in the contract', () => {
  it('elevateScanner takes a watch id; a watch status carries the scanner, checked field by field', async () => {
    const service = recordingService();
    await dispatchRequest(service, 'elevateScanner', 'w1');
    await expect(dispatchRequest(service, 'elevateScanner', { watchId: 'w1' })).rejects.toBeInstanceOf(ContractError);
    expect(service.calls).toEqual([['elevateScanner', 'w1']]);
    const scanner = { mode: 'starting', elevated: false, canElevate: true, hint: null, message: null };
    const status = { scans: 2, holders: 1, denied: 4, error: null };
    expect(parseServiceEvent({ channel: 'watch-status', watchId: 'w1', status: { ...status, scanner } })).toMatchObject({ status: { scanner } });
    expect(parseServiceEvent({ channel: 'watch-status', watchId: 'w1', status })).toMatchObject({ status }); // hosts without a scanner
    expect(() => parseServiceEvent({ channel: 'watch-status', watchId: 'w1', status: { ...status, scanner: { ...scanner, mode: 'root-shell' } } })).toThrow(
      ContractError,
    );
  });
});

describe('a directory to open in the contract', () => {
  it('is a checked dir or a problem sentence, never both nor neither', async () => {
    const client = (answer: unknown) => serviceClient({ invoke: async () => answer, onEvent: () => () => {} }, () => {});
    await expect(client({ dir: '/tmp/w' }).dirToOpen()).resolves.toEqual({ dir: '/tmp/w' });
    await expect(client({ problem: '/nope does not exist' }).dirToOpen()).resolves.toEqual({ problem: '/nope does not exist' });
    await expect(client(null).dirToOpen()).resolves.toBeNull();
    await expect(client({ dir: '/tmp/w', problem: 'x' }).dirToOpen()).rejects.toBeInstanceOf(ContractError);
    await expect(client({}).dirToOpen()).rejects.toBeInstanceOf(ContractError);
    await expect(client({ dir: '' }).dirToOpen()).rejects.toBeInstanceOf(ContractError);
  });

  it('a second instance’s directory arrives on its own channel', () => {
    const listeners = new Set<(p: unknown) => void>();
    const client = serviceClient({ invoke: async () => null, onEvent: (l) => (listeners.add(l), () => listeners.delete(l)) }, () => {});
    const seen: unknown[] = [];
    client.onOpenDirRequest((request) => seen.push(request));
    client.onWatchEvents(() => seen.push('not this one'));
    listeners.forEach((l) => l({ channel: 'open-dir', request: { dir: 'C:\\work' } }));
    listeners.forEach((l) => l({ channel: 'open-dir', request: { dir: 42 } }));
    expect(seen).toEqual([{ dir: 'C:\\work' }]);
  });
});
