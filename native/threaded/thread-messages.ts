// What ThreadedHolderSource and its thread post to each other (structured clones, not JSON: the
// thread is this process's own, so the values are trusted as a function's results are).
import type { PlatformName, ProcessInfo } from '../../contract/holders.js';
import type { ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import type { RecheckPolicy } from '../win32/name-cache.js';

export interface ThreadStart {
  platform: NodeJS.Platform;
  /** The Linux walk's thread, as the owner asked (native/index.ts). */
  walkThread: 'caller' | 'worker';
  /** The owner's identity clock (Linux boot time), so start times, and identities, agree. */
  hostClockEnv: Record<string, string>;
  /** Windows: HolderSourceOptions.systemRecheck (the bench's). */
  systemRecheck?: RecheckPolicy;
  /** KoffiLoadGate.shared: the thread loads koffi only through it. */
  koffiGate: SharedArrayBuffer;
}

export type ThreadCall = { id: number } & (
  | { method: 'resolveWatchDir'; input: string }
  | { method: 'scan'; request: ScanRequest }
  | { method: 'processInfo'; pid: number }
  | { method: 'processExtras'; pid: number; handles: readonly string[] }
);

export type ThreadReply =
  | { ready: true; platform: PlatformName; extras: boolean }
  | { id: number; value: WatchDir | ScanResult | ProcessInfo | ProcessExtras | null }
  | { id: number; error: { message: string; badInput: boolean } };
