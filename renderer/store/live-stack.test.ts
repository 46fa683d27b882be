// The selection slice's live stack: pending, then the answer; an error as a sentence; and an answer
// that arrives after the user selected another holder (or asked again) is dropped.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import type { CapturedLiveStack } from '../../contract/live-stack.js';
import type { HoldwatchService, LiveStackRequestDto } from '../../contract/service.js';
import { holderKey } from '../../contract/identity.js';
import { setService } from '../service/current.js';
import { captureLiveStack, selectRow } from './intents.js';
import { resetStore, useStore } from './store.js';

function holder(pid: number): Holder {
  return {
    pid,
    ppid: 1,
    processStartedAtMs: 5000 + pid,
    processName: 'python3',
    commandLine: 'python3 t.py',
    user: 'dev',
    kind: 'file',
    path: `/w/${pid}.log`,
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
  };
}

const stackOf = (pid: number, text = `thread ${pid}\n  clock_nanosleep\n`): CapturedLiveStack => ({
  kind: 'stack',
  pid,
  tool: 'gdb',
  threads: [{ id: pid, frames: [{ function: 'clock_nanosleep' }] }],
  rawText: '',
  text,
});

/** Installs a service whose live-stack answers the test releases one by one, selects `a` and asks for its stack. */
async function askForA() {
  const { service, asked } = deferredService();
  setService(service);
  await selectRow(holderKey(a));
  return { asked, done: captureLiveStack() };
}

function deferredService() {
  const asked: { request: LiveStackRequestDto; answer: (r: CapturedLiveStack) => void; fail: (e: Error) => void }[] = [];
  const service = {
    getProcessDetails: async () => null,
    captureLiveStack: (request: LiveStackRequestDto) => new Promise<CapturedLiveStack>((answer, fail) => asked.push({ request, answer, fail })),
  } as unknown as HoldwatchService;
  return { service, asked };
}

const a = holder(100);
const b = holder(200);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  resetStore();
  const rows = new Map(
    [a, b].map((h) => [holderKey(h), { key: holderKey(h), holder: h, attribution: null, state: 'live' as const, sinceMs: 0, changedAtMs: 0 }]),
  );
  useStore.setState((s) => ({ watch: { ...s.watch, watchId: 'w1', phase: 'live', rows } }));
});
afterEach(() => setService(null));

describe('live stack (selection slice)', () => {
  it('is running while the service works, then holds the answer; the request names the process identity', async () => {
    const { asked, done } = await askForA();
    expect(useStore.getState().selection.liveStack).toMatchObject({ key: holderKey(a), pid: 100, state: 'running', result: null });
    expect(asked.map((x) => x.request)).toEqual([{ pid: 100, startedAtMs: 5100 }]);
    asked[0]!.answer(stackOf(100));
    await done;
    expect(useStore.getState().selection.liveStack).toMatchObject({ state: 'ready', result: { kind: 'stack', tool: 'gdb' }, error: null });
    expect(useStore.getState().selection.liveStack?.atMs).toEqual(expect.any(Number));
  });

  it('turns a failure into a sentence with the next step, never a blank', async () => {
    const { asked, done } = await askForA();
    asked[0]!.fail(new Error('process 100 has already exited'));
    await done;
    const live = useStore.getState().selection.liveStack!;
    expect(live.state).toBe('error');
    expect(live.error).toMatch(/^Could not take the live stack of PID 100: process 100 has already exited\. .*holdwatch stack 100/);
  });

  it('keeps an unavailable answer as a result (what is missing is not an error of the request)', async () => {
    const { asked, done } = await askForA();
    asked[0]!.answer({ kind: 'unavailable', pid: 100, reason: 'no stack tool found on PATH (gdb, eu-stack)', nextStep: 'install gdb' });
    await done;
    expect(useStore.getState().selection.liveStack).toMatchObject({ state: 'ready', result: { kind: 'unavailable' } });
  });

  it('drops the answer for a holder selected before: the panel of the new one stays as it is', async () => {
    const { asked, done: forA } = await askForA();
    await selectRow(holderKey(b));
    expect(useStore.getState().selection.liveStack).toBeNull(); // another holder: nothing shown yet
    asked[0]!.answer(stackOf(100));
    await forA;
    expect(useStore.getState().selection.liveStack).toBeNull();

    const forB = captureLiveStack();
    await selectRow(holderKey(a)); // back to a: its old answer was dropped, b's must not show here
    asked[1]!.answer(stackOf(200));
    await forB;
    expect(useStore.getState().selection.liveStack).toBeNull();
  });

  it('drops an older answer when the user asked again for the same holder', async () => {
    const { asked, done: first } = await askForA();
    const second = captureLiveStack();
    asked[1]!.answer(stackOf(100, 'second'));
    await second;
    asked[0]!.fail(new Error('late failure of the first'));
    await first;
    await flush();
    expect(useStore.getState().selection.liveStack).toMatchObject({ state: 'ready', result: { text: 'second' } });
  });

  it('survives re-selecting the same holder (after End process the details reload, the stack stays)', async () => {
    const { asked, done } = await askForA();
    asked[0]!.answer(stackOf(100));
    await done;
    await selectRow(holderKey(a));
    expect(useStore.getState().selection.liveStack?.state).toBe('ready');
  });
});
