// How a read of /proc fails when the process is simply no longer there: normal, never an error.

/** ENOENT/ESRCH: the process exited between listing and reading. */
export function isGoneError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ESRCH';
}
