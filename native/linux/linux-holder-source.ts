// HolderSource for Linux, from /proc. Root sees every process; a user sees its own and the rest
// are listed in `denied` with the reason.
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { DeniedProcess, ProcessInfo } from '../../contract/holders.js';
import { BadInputError } from '../../core/errors.js';
import type { HolderSource, ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import { readLinuxProcessExtras } from './process-extras.js';
import type { MatchDir, WalkResult } from './fd-walk.js';
import { displayName, isGoneError, readArgv, readProcessInfo } from './proc-stat.js';
import { HolderReuse } from './holder-reuse.js';
import { listPids } from './pid-list.js';
import { ScanPool, type WalkThread } from './scan-pool.js';

export class LinuxHolderSource implements HolderSource {
  readonly platform = 'linux' as const;
  private readonly pool: ScanPool;
  private readonly reuse = new HolderReuse();

  constructor(options: { walkThread?: WalkThread; once?: boolean } = {}) {
    this.pool = new ScanPool(options.walkThread ?? 'caller', { remember: options.once !== true });
  }

  async resolveWatchDir(input: string): Promise<WatchDir> {
    return resolveLinuxWatchDir(input);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const pids = request.pids ?? listPids();
    const dirs: MatchDir[] = request.dirs.map((d) => ({ matchPrefix: d.matchPrefix, display: d.display }));
    const walked = await this.pool.walk(pids, dirs, request.pids === undefined, request.idleCheck === true);
    return enrich(walked, this.reuse, request.pids ?? null);
  }

  /** The walk thread started and running, for a caller that counts this process's own fds. */
  whenThreadsOnline(): Promise<void> {
    return this.pool.whenOnline();
  }

  async processInfo(pid: number): Promise<ProcessInfo | null> {
    return readProcessInfo(pid);
  }

  async processExtras(pid: number, handles: readonly string[]): Promise<ProcessExtras | null> {
    return readLinuxProcessExtras(pid, handles);
  }

  async dispose(): Promise<void> {
    await this.pool.dispose();
  }
}

export function resolveLinuxWatchDir(input: string, cwd = process.cwd()): WatchDir {
  if (input.trim() === '') throw new BadInputError('no directory given (an empty path)');
  if (input.includes('\0')) throw new BadInputError('the directory path contains a NUL byte');
  const absolute = isAbsolute(input) ? input : resolve(cwd, input);
  let real: string;
  try {
    // Follows symlinks: /proc shows fd targets by their real path.
    real = realpathSync(absolute);
  } catch (error) {
    throw new BadInputError(describeFsError(error, input));
  }
  if (!statSync(real).isDirectory()) throw new BadInputError(`not a directory: ${input}`);
  try {
    accessSync(real, constants.R_OK | constants.X_OK);
  } catch {
    throw new BadInputError(`cannot read directory: ${input} (permission denied)`);
  }
  return { input, display: real, matchPrefix: real, caseInsensitive: false };
}

function describeFsError(error: unknown, input: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `no such directory: ${input}`;
  if (code === 'ENOTDIR') return `not a directory: ${input}`;
  if (code === 'EACCES') return `cannot read directory: ${input} (permission denied)`;
  if (code === 'ENAMETOOLONG') return `path too long: ${input.slice(0, 80)}...`;
  if (code === 'ELOOP') return `too many symbolic links: ${input}`;
  return `cannot open directory: ${input} (${code ?? String(error)})`;
}

/** Makes holders of the raw rows, with their processes' facts (read by the walk). */
function enrich(walked: WalkResult, reuse: HolderReuse, scannedPids: readonly number[] | null): ScanResult {
  const holders = reuse.build(walked.groups, scannedPids);
  const denied: DeniedProcess[] = [];
  for (const d of walked.denied) {
    const name = readCommName(d.pid);
    if (name !== null) denied.push({ pid: d.pid, name, reason: d.reason });
  }
  return { holders, denied, unnamed: [], processCount: walked.processCount + walked.denied.length, handleCount: walked.handleCount };
}

/** /proc/<pid>/comm and cmdline are world-readable even for processes whose fds are not. */
function readCommName(pid: number): string | null {
  try {
    return displayName(readFileSync(`/proc/${pid}/comm`, 'utf8').trimEnd(), readArgv(pid)[0], null);
  } catch (error) {
    if (isGoneError(error)) return null;
    return '?';
  }
}
