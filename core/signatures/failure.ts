// What a teardown-failure line tells us: the kind of failure, the OS error behind it, and the path.
// The kind is what the correlator acts on; the code is kept so a report can quote it exactly.

export type FailureKind =
  | 'sharing-violation' // Win32 32: another handle was opened without FILE_SHARE_DELETE/WRITE
  | 'access-denied-or-delete-pending' // Win32 5: often a file already delete-pending because a handle is open
  | 'directory-not-empty' // Win32 145, ENOTEMPTY: an open (delete-pending) file keeps the dir listed
  | 'lock-violation' // Win32 33: a byte-range lock (LockFileEx) is held
  | 'busy' // EBUSY: mount point, cwd of a process on some systems, MSYS's mapping of sharing violations
  | 'cleanup-failed'; // a runner's own cleanup said it could not remove a path, in an OS text not in the table

export type FailureSource = 'python' | 'go' | 'node' | 'rm' | 'dotnet' | 'java' | 'rust' | 'cpp' | 'unknown';

/** The OS error behind the text. `code` is absent when the runtime prints no number (Java, Go). */
export interface OsError {
  system: 'win32' | 'errno';
  /** `ERROR_SHARING_VIOLATION`, `EBUSY`... */
  name: string;
  /** Win32 code, or the Linux errno number for `errno` (Node's libuv codes and macOS numbers are mapped). */
  code: number;
}

export interface TeardownFailure {
  kind: FailureKind;
  /** Absent for `cleanup-failed`: the runner's words say a removal failed, the OS's are not known. */
  error?: OsError;
  source: FailureSource;
  /** The path named by the message, unquoted (Python reprs are unescaped); absent when the line names none. */
  path?: string;
  /** `code`: the line carries a number or errno name; `message`: classified from the (possibly translated) text. */
  classifiedBy: 'code' | 'message';
  /** The line as given. */
  line: string;
}
