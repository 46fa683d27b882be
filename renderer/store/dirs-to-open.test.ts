import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirToOpen, HoldwatchService } from '../../contract/service.js';
import { setService } from '../service/current.js';
import { followDirsToOpen } from './intents.js';
import { resetStore, useStore } from './store.js';

/** A host started on `initial`, whose second instances the test plays with `secondInstance`. */
function host(initial: DirToOpen | null) {
  const calls: string[] = [];
  let listener: ((request: DirToOpen) => void) | null = null;
  const fake = {
    dirToOpen: async () => initial,
    onOpenDirRequest: (l: (request: DirToOpen) => void) => ((listener = l), () => (listener = null)),
    startWatch: async ({ dirs }: { dirs: string[] }) => (calls.push(`watch ${dirs[0]}`), { watchId: `w${calls.length}` }),
    stopWatch: async (id: string) => void calls.push(`stop ${id}`),
    defaultDir: async () => '/tmp',
    listRecentDirs: async () => [],
  } as unknown as HoldwatchService;
  setService(fake);
  return { fake, calls, secondInstance: (request: DirToOpen) => listener!(request), subscribed: () => listener !== null };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => resetStore());
afterEach(() => setService(null));

describe('followDirsToOpen', () => {
  it('opens straight onto watching the directory the app was started on', async () => {
    const { fake, calls } = host({ dir: '/work/build' });
    const off = followDirsToOpen(fake);
    await settled();
    expect(calls).toEqual(['watch /work/build']);
    expect(useStore.getState().watch).toMatchObject({ dirs: ['/work/build'], watchId: 'w1', error: null });
    off();
  });

  it('stays on the start screen with the one-line reason when the start directory cannot be watched', async () => {
    const { fake, calls } = host({ problem: 'no such directory: /work/gone' });
    followDirsToOpen(fake);
    await settled();
    expect(calls).toEqual([]);
    expect(useStore.getState().watch).toMatchObject({ phase: 'error', error: 'no such directory: /work/gone', watchId: null });
    expect(useStore.getState().watch.rows.size).toBe(0); // no rows + error: App shows the start screen
  });

  it('turns to each directory a second instance names, and leaves the watch for one it cannot open', async () => {
    const { fake, calls, secondInstance, subscribed } = host(null);
    const off = followDirsToOpen(fake);
    await settled();
    expect(calls).toEqual([]); // started without a directory: the start screen, as always
    secondInstance({ dir: 'C:\\Users\\me\\AppData\\Local\\Temp\\pytest-of-me' });
    await settled();
    expect(useStore.getState().watch).toMatchObject({ dirs: ['C:\\Users\\me\\AppData\\Local\\Temp\\pytest-of-me'], watchId: 'w1' });
    secondInstance({ problem: 'not a directory: C:\\x.txt' });
    await settled();
    expect(calls).toEqual(['watch C:\\Users\\me\\AppData\\Local\\Temp\\pytest-of-me', 'stop w1']);
    expect(useStore.getState().watch).toMatchObject({ phase: 'error', error: 'not a directory: C:\\x.txt', watchId: null });
    off();
    expect(subscribed()).toBe(false);
  });
});
