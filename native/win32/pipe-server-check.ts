// The elevated scanner worker checks who serves the pipe before it writes a byte. Node's pipes are
// libuv's: any number of instances, the creator's default DACL, so another process of the same user
// can list `\\.\pipe\`, see holdwatch's pipe and create a second instance of it. The worker might then
// connect to that one and hand it the token, its answers (every process's handles, as administrator)
// and, once it has written, the chance to impersonate it (ImpersonateNamedPipeClient works on the
// security context of the last message read). So the worker compares the server's pid
// (GetNamedPipeServerProcessId) with the host's, given on its command line, and writes nothing to any
// other. Node gives no access to a socket's OS handle: the connection is found as the File handle
// that connecting added to this process's table.
import { currentProcess } from './kernel32.js';
import { lazyLibrary } from '../koffi-loader.js';
import { SystemTables } from './system-tables.js';
import type { ProcessHandle } from './win-types.js';

const fn = lazyLibrary('kernel32.dll');
const getNamedPipeServerProcessId = fn('bool GetNamedPipeServerProcessId(void *pipe, _Out_ uint32_t *pid)');

/** The server pids of this process's pipe connections that are not in `before`: what connecting added. */
export interface PipeServerProbe {
  /** This process's pid: a pipe it serves itself (Chromium's own, made at start-up) connects it to no one. */
  ownPid: number;
  /** This process's File handle values now. */
  ownFileHandles(): Set<bigint>;
  /** GetNamedPipeServerProcessId; null for a handle that is not a pipe client (the call fails fast). */
  serverPid(handle: bigint): number | null;
}

export function windowsPipeServerProbe(): PipeServerProbe {
  return {
    ownPid: process.pid,
    ownFileHandles: () => {
      const tables = new SystemTables();
      try {
        // Class 51 where the OS has it; the system table, filtered, elsewhere (Wine).
        const own =
          tables.processFileHandles(currentProcess() as unknown as ProcessHandle, process.pid) ?? tables.fileHandles().filter((e) => e.pid === process.pid);
        return new Set(own.map((e) => e.handle));
      } finally {
        tables.dispose();
      }
    },
    serverPid: (handle) => {
      const out = [0];
      if (getNamedPipeServerProcessId()(handle, out)) return out[0] ?? null;
      return null;
    },
  };
}

/**
 * Why the connection made since `before` must not be used, or null when its server is `hostPid`.
 * A pipe connection to another server, or none found at all, is refused: trusting it on no evidence
 * is what the check is for.
 */
export function refusePipeServer(probe: PipeServerProbe, before: ReadonlySet<bigint>, hostPid: number): string | null {
  const servers: number[] = [];
  for (const handle of probe.ownFileHandles()) {
    if (before.has(handle)) continue;
    const pid = probe.serverPid(handle);
    // In the packaged app the elevated worker is the whole Electron executable: Chromium makes its own
    // pipes while it starts, served by this process. Only a connection to another process is evidence.
    if (pid !== null && pid !== probe.ownPid) servers.push(pid);
  }
  if (servers.length === 0) return 'no new pipe connection was found in this process';
  const others = servers.filter((pid) => pid !== hostPid);
  if (others.length > 0) return `the pipe is served by pid ${others.join(', ')}, not by holdwatch's host (pid ${hostPid})`;
  return null;
}
