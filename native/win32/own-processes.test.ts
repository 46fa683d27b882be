// Which processes are holdwatch's own: the app's process tree as Windows lists it, with a test the app
// started and that test's own children beside Chromium's.
import { describe, expect, it } from 'vitest';
import { ownProcesses, type ProcessLink } from './own-processes.js';

const APP = 'holdwatch.exe';
const tree: ProcessLink[] = [
  { pid: 900, ppid: 4, imageName: 'explorer.exe' },
  // Listed before its parent: the process list is not in tree order.
  { pid: 1300, ppid: 1200, imageName: APP }, // a renderer's crashpad handler
  { pid: 1000, ppid: 900, imageName: 'holdwatch.exe' }, // the app's main process (the host)
  { pid: 1200, ppid: 1000, imageName: 'HOLDWATCH.EXE' }, // a renderer
  { pid: 1100, ppid: 1000, imageName: APP }, // the name worker (the app's executable as Node)
  { pid: 1400, ppid: 1000, imageName: 'python.exe' }, // a test run started from the app
  { pid: 1500, ppid: 1400, imageName: APP }, // a test that starts holdwatch: the run's, not the app's
  { pid: 2000, ppid: 900, imageName: APP }, // a second app the user started: not this one's
  { pid: 1110, ppid: 1100, imageName: 'conhost.exe' }, // the name worker's console host, in its cwd
  { pid: 1410, ppid: 1400, imageName: 'conhost.exe' }, // the test's console host: the test's
];

describe('ownProcesses', () => {
  it("in the app: the host and the descendants running the app's executable; a test and what it starts are not", () => {
    expect([...ownProcesses(tree, [1000], APP)].sort()).toEqual([1000, 1100, 1110, 1200, 1300]);
  });

  it('under plain Node (the CLI): the roots and their console hosts only, since a test it runs may be node.exe too', () => {
    const cli: ProcessLink[] = [
      { pid: 10, ppid: 9, imageName: 'node.exe' },
      { pid: 11, ppid: 10, imageName: 'node.exe' }, // the name worker
      { pid: 13, ppid: 11, imageName: 'conhost.exe' },
      { pid: 12, ppid: 10, imageName: 'node.exe' }, // node --test, run by `holdwatch run`
    ];
    expect([...ownProcesses(cli, [10, 11], null)].sort()).toEqual([10, 11, 13]);
  });
});
