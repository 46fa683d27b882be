// SeDebugPrivilege, enabled in every scanning process that holds it (an elevated one). Holding it is
// not enough: a privilege in a token is off until AdjustTokenPrivileges turns it on. With it on,
// OpenProcess succeeds on services and other users' processes (not on protected ones: protection.ts),
// and Windows 11 24H2 / Server 2025 fill the system handle table's Object field again, which they
// zero for callers without it; without the address, a handle value reused LIFO looks unchanged
// (name-cache.ts). The token layout and the outcome are pure, tested with bytes; the calls are below.
import { getTokenInformation, openProcessToken, TOKEN_QUERY } from './advapi32.js';
import { lazyLibrary } from '../koffi-loader.js';
import { closeHandle, currentProcess, lastError } from './kernel32.js';
import { Win32Error } from './win-errors.js';
import type { TokenHandle } from './win-types.js';

const fn = lazyLibrary('advapi32.dll');
const lookupPrivilegeValueW = fn('bool LookupPrivilegeValueW(str16 system, str16 name, void *luid)');
const adjustTokenPrivileges = fn('bool AdjustTokenPrivileges(void *token, bool disableAll, void *state, uint32_t length, void *previous, void *returnLength)');

const TOKEN_ADJUST_PRIVILEGES = 0x0020;
const TokenPrivileges = 3;
const SE_PRIVILEGE_ENABLED = 0x2;
/** AdjustTokenPrivileges succeeded, but the token lacks the privilege: it changed nothing. */
export const ERROR_NOT_ALL_ASSIGNED = 1300;

export type PrivilegeState = 'enabled' | 'not held';

/** TOKEN_PRIVILEGES with one entry: PrivilegeCount, then LUID_AND_ATTRIBUTES (LUID: LowPart, HighPart; Attributes). */
export function enablingState(luid: Buffer): Buffer {
  const state = Buffer.alloc(16);
  state.writeUInt32LE(1, 0);
  luid.copy(state, 4, 0, 8);
  state.writeUInt32LE(SE_PRIVILEGE_ENABLED, 12);
  return state;
}

/** What AdjustTokenPrivileges did: it returns TRUE both when it enabled the privilege and when the token lacks it. */
export function adjustOutcome(ok: boolean, error: number): PrivilegeState {
  if (!ok) throw new Win32Error('AdjustTokenPrivileges', error);
  return error === ERROR_NOT_ALL_ASSIGNED ? 'not held' : 'enabled';
}

/** Is the LUID in a TOKEN_PRIVILEGES buffer, and enabled? */
export function enabledIn(privileges: Buffer, luid: Buffer): boolean {
  const count = privileges.readUInt32LE(0);
  for (let i = 0; i < count; i++) {
    const at = 4 + i * 12;
    if (privileges.subarray(at, at + 8).equals(luid.subarray(0, 8))) return (privileges.readUInt32LE(at + 8) & SE_PRIVILEGE_ENABLED) !== 0;
  }
  return false;
}

function debugLuid(): Buffer {
  const luid = Buffer.alloc(8);
  if (!lookupPrivilegeValueW()(null, 'SeDebugPrivilege', luid)) throw new Win32Error('LookupPrivilegeValueW', lastError());
  return luid;
}

function withOwnToken<T>(access: number, use: (token: TokenHandle) => T): T {
  const out = [0n];
  if (!openProcessToken()(currentProcess(), access, out)) throw new Win32Error('OpenProcessToken', lastError());
  const token = BigInt(out[0] ?? 0) as TokenHandle;
  try {
    return use(token);
  } finally {
    closeHandle(token);
  }
}

let state: PrivilegeState | undefined;

/** Turns SeDebugPrivilege on in this process's token where the token holds it; once per process. */
export function enableDebugPrivilege(): PrivilegeState {
  state ??= withOwnToken(TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, (token) => {
    const ok = Boolean(adjustTokenPrivileges()(token, false, enablingState(debugLuid()), 16, null, null));
    return adjustOutcome(ok, lastError());
  });
  return state;
}

/** enableDebugPrivilege, or null when asking the token failed: a scan works without it, as a standard user's does. */
export function tryEnableDebugPrivilege(): PrivilegeState | null {
  try {
    return enableDebugPrivilege();
  } catch {
    return null;
  }
}

/** Read back from the token, not remembered: for tests and diagnostics. */
export function debugPrivilegeEnabled(): boolean {
  return withOwnToken(TOKEN_QUERY, (token) => {
    const info = Buffer.alloc(4096);
    const length = [0];
    if (!getTokenInformation()(token, TokenPrivileges, info, info.length, length)) throw new Win32Error('GetTokenInformation', lastError());
    return enabledIn(info, debugLuid());
  });
}
