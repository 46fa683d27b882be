// For the renderer's unit tests only: a table row as the renderer shows it, a holder of `path` under /w
// by process p<pid>, with what the test says about it.
import type { Holder } from '../../contract/holders.js';
import { holderKey } from '../../contract/identity.js';
import type { ShownRow } from './derive.js';

export function shownRow(pid: number, path: string, over: Partial<ShownRow> = {}): ShownRow {
  const holder: Holder = {
    pid,
    ppid: 1,
    processStartedAtMs: 5,
    processName: `p${pid}`,
    commandLine: `p${pid} --work`,
    user: 'dev',
    kind: 'file',
    path,
    deleted: false,
    handle: null,
    watchedDir: '/w',
  };
  return { key: holderKey(holder), holder, attribution: null, sinceMs: 0, state: 'live', changedAtMs: 0, highlighted: false, ...over };
}
