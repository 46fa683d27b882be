// Branded handle types: the compiler refuses a process handle where a file handle is expected.
// koffi 3 passes pointers (and so HANDLEs) as BigInt.

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A handle this process owns and must close (CloseHandle) in a `finally`. */
export type ProcessHandle = Brand<bigint, 'ProcessHandle'>;
export type FileHandle = Brand<bigint, 'FileHandle'>;
export type TokenHandle = Brand<bigint, 'TokenHandle'>;
/** A handle value as it exists in ANOTHER process's table: never valid here, never closed here. */
export type RemoteHandleValue = Brand<bigint, 'RemoteHandleValue'>;
/** A pseudo-handle (GetCurrentProcess): valid, needs no close. */
export type PseudoHandle = Brand<bigint, 'PseudoHandle'>;

export const INVALID_HANDLE_VALUE = -1n;

/** Windows FILETIME (100 ns ticks since 1601-01-01) to Unix milliseconds. */
export function fileTimeToUnixMs(ticks: bigint): number {
  const EPOCH_DIFF_TICKS = 116444736000000000n;
  return Number((ticks - EPOCH_DIFF_TICKS) / 10000n);
}
