// Small display helpers shared by the components.
import type { HandleAccess } from '../contract/holders.js';

export function clockTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/**
 * A whole number as en-US writes it (`20,000`), without Intl: a page's first Intl call loads ICU's
 * data, and the first table render would wait for it.
 */
export function thousands(count: number): string {
  return String(Math.trunc(count)).replace(/\B(?=(\d{3})+$)/g, ',');
}

export const VERDICT_LABEL: Record<string, string> = {
  'blocked-cleanup': 'blocked cleanup',
  'leaked-past-test': 'leaked past test',
  'outlived-run': 'outlived the run',
  'closed-by-gc': 'closed by GC',
  'outside-run': 'outside run',
  'in-run': 'in run',
};

/** How the opening test is known, as a reader would say it. */
export const EVIDENCE_TEXT: Record<string, string> = {
  'probe-open': 'recorded at the open, inside the process',
  'probe-finalizer': 'the probe saw the garbage collector close it',
  'self-inventory': "the test process's own list of what it held at the test's end",
  'syscall-ledger': "the process's system calls, in order with its test ends",
  'deleted-while-held': 'a run process deleted the path while it was held',
  'test-boundary': 'from the scans at the test boundaries',
  'boundary-unconfirmed': 'the test went on before the scan at its end was done: not known to be held then',
  'exit-stop': 'seen when the process exited',
  'test-temp-dir': "the file is in that test's temp dir",
  'failure-scan': 'seen at the failure',
  'process-tree': 'from the process tree',
  poll: 'from the poll that first saw it',
};

/** A duration as people say it: `40 s`, `3 min`, `2 h 5 min`. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** A handle's rights as a short label: `read`, `write`, `read-write + delete`, `none`. */
export function rightsLabel(access: HandleAccess | null | undefined): string {
  if (!access) return '—';
  const { rights } = access;
  if (rights.length === 0) return 'none';
  const data = rights.includes('read') && rights.includes('write') ? 'read-write' : rights.filter((r) => r !== 'delete').join('');
  return [data, rights.includes('delete') ? 'delete' : ''].filter(Boolean).join(' + ');
}
