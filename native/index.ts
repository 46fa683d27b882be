// Picks the platform backend once, loading only that one (koffi is never loaded off Windows).
import type { ChangeFeed, HolderSource, LiveStackSource, ProcessSource, WatchDir } from '../core/platform.js';
import type { RecheckPolicy } from './win32/name-cache.js';
import type { WorkerLauncher } from './remote/remote-holder-source.js';
import { LINUX_CLOSE_REFUSAL, type HandleTarget, type NamedHandle } from '../core/close-policy.js';
import { BadInputError, UnsupportedPlatformError } from '../core/errors.js';

export type { HandleTarget };

export interface HolderSourceOptions {
  /**
   * Linux: where the /proc walk runs. A poller (watch, run, the app) walks on a thread of its own that
   * remembers each process between walks; a one-shot scan on the calling thread (the default), since
   * starting a thread costs more than the walk (native/linux/scan-pool.ts).
   */
  walkThread?: 'caller' | 'worker';
  /**
   * Linux: the source scans once and is disposed (a one-shot `scan`): its walk remembers nothing for a
   * next one, which spares it the reads that only a poller's next walk would use.
   */
  once?: boolean;
  /**
   * Windows: run the scans on a worker thread (native/threaded/), not on the calling one: for a
   * thread that owns a window. Linux walks on a thread of its own with walkThread 'worker' and ignores this.
   */
  offMainThread?: boolean;
  /**
   * Windows: how long system scans trust a name no object address proves (Win32Options.systemRecheck).
   * The bench passes one that trusts for ever, to measure what a table with addresses costs; the
   * product passes none.
   */
  systemRecheck?: RecheckPolicy;
  /** Windows: holdwatch's pids beside this process (the elevated scan worker's host): never listed as holders. */
  ownPids?: readonly number[];
}

export async function openHolderSource(options: HolderSourceOptions = {}, platform = process.platform): Promise<HolderSource> {
  if (options.offMainThread && platform === 'win32') {
    try {
      return await openThreadedHolderSource(options.walkThread ?? 'caller', platform, options.systemRecheck);
    } catch (error) {
      // A packaged app whose worker script cannot load (asar) still scans, on this thread, and says so.
      process.emitWarning(`holdwatch scans on the main thread: the scan thread did not start (${(error as Error).message})`);
    }
  }
  switch (platform) {
    case 'linux': {
      const { LinuxHolderSource } = await import('./linux/linux-holder-source.js');
      return new LinuxHolderSource(options);
    }
    case 'win32': {
      // Only this import loads koffi (lazily, on the first Windows call).
      const { Win32HolderSource } = await import('./win32/win32-holder-source.js');
      return new Win32HolderSource({
        ...(options.systemRecheck ? { systemRecheck: options.systemRecheck } : {}),
        ...(options.ownPids ? { ownPids: options.ownPids } : {}),
      });
    }
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

export async function openProcessSource(platform = process.platform): Promise<ProcessSource> {
  switch (platform) {
    case 'linux': {
      const { LinuxProcessSource } = await import('./linux/linux-process-source.js');
      return new LinuxProcessSource();
    }
    case 'win32': {
      const { Win32ProcessSource } = await import('./win32/win32-process-source.js');
      return new Win32ProcessSource();
    }
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

/**
 * Cheap signs of change under `dirs` and in the process list, for a watch that should cost next to
 * nothing while nothing happens (core/watch.ts); null where the platform offers none, or not now.
 * Windows has none: ReadDirectoryChangesW needs a handle open on the watched dir for as long as the
 * watch lasts (holdwatch would hold what it watches, and a test's rmdir of it would be left pending),
 * and it reports creates, renames and writes, never an open.
 */
export async function openChangeFeed(dirs: readonly WatchDir[], platform = process.platform): Promise<ChangeFeed | null> {
  if (platform !== 'linux') return null;
  const { LinuxChangeFeed } = await import('./linux/linux-change-feed.js');
  return LinuxChangeFeed.open(dirs.map((d) => d.matchPrefix));
}

export interface LiveStackSourceOptions {
  /** Where Windows writes minidumps (`<data dir>/dumps`); created on first use. */
  dumpsDir: string;
}

export async function openLiveStackSource(options: LiveStackSourceOptions, platform = process.platform): Promise<LiveStackSource> {
  switch (platform) {
    case 'linux': {
      const { LinuxLiveStackSource } = await import('./linux/live-stack-source.js');
      return new LinuxLiveStackSource();
    }
    case 'win32': {
      const { MinidumpSource } = await import('./win32/minidump-source.js');
      return new MinidumpSource({ dumpsDir: options.dumpsDir });
    }
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

/**
 * Ends the process `pid` (SIGTERM on Linux, TerminateProcess on Windows) only while it is still the one
 * that started at `startedAtMs`; 'gone' when it exited or its pid now belongs to another process.
 */
export async function endProcessIfSame(pid: number, startedAtMs: number, platform = process.platform): Promise<'ended' | 'gone'> {
  switch (platform) {
    case 'linux':
      return (await import('./linux/end-process.js')).endLinuxProcessIfSame(pid, startedAtMs);
    case 'win32':
      return (await import('./win32/end-process.js')).endWin32ProcessIfSame(pid, startedAtMs);
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

/**
 * Whether `pid` sits in a job-control stop (Ctrl-Z, SIGSTOP): a stop that is the user's, which
 * holdwatch leaves alone. Windows has no such state.
 */
export async function isJobStopped(pid: number, platform = process.platform): Promise<boolean> {
  return platform === 'linux' ? (await import('./linux/live-stack-source.js')).isJobStopped(pid) : false;
}

/**
 * One handle of another process (Windows), as the user saw it: what it names now under the dirs
 * (null: nothing there any more), and closing it while it still names `expectedPath`. Both throw
 * BadInputError with the reason when holdwatch will not: Linux (LINUX_CLOSE_REFUSAL), holdwatch itself,
 * a system or protected process, a reused pid or handle value, the process's current directory.
 */
export async function describeHandle(target: HandleTarget, platform = process.platform): Promise<NamedHandle | null> {
  return (await win32HandleCloser(platform)).describeWin32Handle(target);
}

export async function closeHandleIfSame(target: HandleTarget, expectedPath: string, platform = process.platform): Promise<void> {
  return (await win32HandleCloser(platform)).closeWin32Handle(target, expectedPath);
}

async function win32HandleCloser(platform: NodeJS.Platform) {
  if (platform === 'linux') throw new BadInputError(LINUX_CLOSE_REFUSAL);
  if (platform !== 'win32') throw new UnsupportedPlatformError(platform);
  return import('./win32/close-handle.js');
}

/**
 * The 8.3 form of an existing path on Windows (GetShortPathNameW), for a tool that splits its settings
 * on spaces; null elsewhere, or where the volume keeps no 8.3 names.
 */
export async function shortPathOf(path: string, platform = process.platform): Promise<string | null> {
  if (platform !== 'win32') return null;
  return (await import('./win32/kernel32.js')).shortPathName(path);
}

export { UnsupportedPlatformError };

/** Whether this process runs as administrator (Windows) or root (elsewhere). */
export async function runsElevated(platform = process.platform): Promise<boolean> {
  if (platform === 'win32') {
    const { isUserAnAdmin } = await import('./win32/shell32.js');
    return isUserAnAdmin();
  }
  return process.geteuid?.() === 0;
}

/**
 * How the scanner worker is started: elevated through the UAC prompt on Windows; elsewhere (and
 * with `sameRights`, for tests) as a plain child with the host's rights.
 */
export async function scannerWorkerLauncher(
  program: string,
  prefixArgs: readonly string[],
  options: { sameRights?: boolean } = {},
  platform = process.platform,
): Promise<WorkerLauncher> {
  if (platform === 'win32' && !options.sameRights) {
    const { elevatedLauncher } = await import('./win32/elevated-launch.js');
    return elevatedLauncher(program, prefixArgs);
  }
  const { spawnLauncher } = await import('./remote/spawn-launcher.js');
  return spawnLauncher(program, prefixArgs, await hostIdentityClockEnv(platform));
}

/** What a scanner worker (a process or a thread) needs to read start times as this process does. */
export async function hostIdentityClockEnv(platform = process.platform): Promise<Record<string, string>> {
  return platform === 'linux' ? { [BOOT_TIME_ENV]: String((await import('./linux/proc-stat.js')).readBootTimeMs()) } : {};
}

/**
 * Linux start times are boot time + ticks, and each process reads the boot time a few ms apart:
 * the worker takes the host's, so a holder keeps its identity (pid, start) across the switch.
 * Windows start times come from the kernel's CreateTime and need nothing.
 */
const BOOT_TIME_ENV = 'HOLDWATCH_HOST_BOOT_TIME_MS';

/** In the scanner worker, before its source opens: adopt the host's boot time (see BOOT_TIME_ENV). */
export async function adoptHostIdentityClock(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<void> {
  const ms = Number(env[BOOT_TIME_ENV]);
  if (platform === 'linux' && Number.isFinite(ms) && ms > 0) (await import('./linux/proc-stat.js')).adoptBootTimeMs(ms);
}

/**
 * Windows: checks that the pipe connection made after `snapshot()` is served by `hostPid` (see
 * win32/pipe-server-check.ts). Null elsewhere: the unix socket sits in an owner-only data dir.
 */
export interface PipeServerGuard {
  snapshot(): ReadonlySet<bigint>;
  refusal(before: ReadonlySet<bigint>, hostPid: number): string | null;
}

export async function openPipeServerGuard(platform = process.platform): Promise<PipeServerGuard | null> {
  if (platform !== 'win32') return null;
  const { refusePipeServer, windowsPipeServerProbe } = await import('./win32/pipe-server-check.js');
  const probe = windowsPipeServerProbe();
  return { snapshot: () => probe.ownFileHandles(), refusal: (before, hostPid) => refusePipeServer(probe, before, hostPid) };
}

/** The platform's holder source on a worker thread of this process (native/threaded/). */
export async function openThreadedHolderSource(
  walkThread: 'caller' | 'worker',
  platform = process.platform,
  systemRecheck?: RecheckPolicy,
): Promise<HolderSource> {
  const { ThreadedHolderSource } = await import('./threaded/threaded-holder-source.js');
  return ThreadedHolderSource.start({ platform, walkThread, hostClockEnv: await hostIdentityClockEnv(platform), ...(systemRecheck ? { systemRecheck } : {}) });
}
