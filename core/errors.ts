// Typed failures. The CLI turns BadInputError into one line on stderr and exit code 2.

/** The user asked for something that cannot be done as asked (missing dir, not a dir, unreadable). */
export class BadInputError extends Error {
  override readonly name = 'BadInputError';
}

/** An OS call failed. Backends subclass it (Win32Error, NtStatusError, ...). */
export class PlatformError extends Error {
  override readonly name: string = 'PlatformError';
  constructor(
    readonly api: string,
    readonly code: number | string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A lack of resources that passes (the fd table full, memory short): worth trying again later, not a
 * reason to give up. By code, or by message where the error crossed a thread as text.
 */
export function isPassingShortage(error: unknown): boolean {
  return /\b(EMFILE|ENFILE|ENOMEM|EAGAIN|ENOBUFS)\b/.test(`${codeOf(error)} ${messageOf(error)}`);
}

/** What went wrong in a word where the OS gave one (`ENOSPC`), else messageOf(error): for one-line reports. */
export function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : messageOf(error);
}

/** What a caught value says: an Error's message, or the value as text (a string thrown, a rejection reason). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The platform has no backend: said to the user as bad input (exit 2), not as an internal error. */
export class UnsupportedPlatformError extends Error {
  override readonly name = 'UnsupportedPlatformError';
  constructor(readonly platform: string) {
    super(`holdwatch does not support ${platform} yet (linux and win32 are supported)`);
  }
}
