// One process's details beyond /proc/<pid>/stat, read fresh for the details panel: its cwd, how many
// fds it has open, and for the fds asked about their flags and advisory locks (fdinfo).
import { readdirSync, readlinkSync } from 'node:fs';
import { linuxHandleAccess } from '../../core/handle-access.js';
import type { ProcessExtras } from '../../core/platform.js';
import { readFdInfo } from './fdinfo.js';
import { isGoneError } from './proc-stat.js';

const FD_HANDLE = /^fd (\d+)$/;

/** null when the process is gone. */
export function readLinuxProcessExtras(pid: number, handles: readonly string[]): ProcessExtras | null {
  let cwd: string | null = null;
  let cwdUnreadableReason: string | null = null;
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch (error) {
    if (isGoneError(error)) return null;
    cwdUnreadableReason = `${(error as NodeJS.ErrnoException).code ?? 'error'} reading /proc/${pid}/cwd (another user's process: run holdwatch as that user or root)`;
  }
  let handleCount: number | null = null;
  try {
    handleCount = readdirSync(`/proc/${pid}/fd`).length;
  } catch (error) {
    if (isGoneError(error)) return null;
  }
  const facts: ProcessExtras['handles'] = {};
  for (const handle of handles) {
    const fd = FD_HANDLE.exec(handle)?.[1];
    const info = fd === undefined ? null : readFdInfo(pid, fd);
    if (info) facts[handle] = { access: info.flags === null ? null : linuxHandleAccess(info.flags, process.arch), locks: info.locks };
  }
  return { cwd, cwdUnreadableReason, handleCount, handles: facts };
}
