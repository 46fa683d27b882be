// The paths a syscall ledger's calls name, made absolute the way the kernel resolves them: against the
// directory fd -y printed (`7</tmp/x>`), else against the process's working directory. Pure.
import { POSIX_STYLE, foldDots } from '../paths.js';
import { fdArg, firstFd, firstStringArg, splitArgs, type TracedCall } from './strace-lines.js';

/** `name` resolved against `dir` (`.` and `..` folded); null when it is relative and `dir` is unknown. */
export function resolveIn(dir: string | null, name: string): string | null {
  const whole = name.startsWith('/') ? name : dir === null ? null : `${dir}/${name}`;
  // The kernel reads `//x` as `/x`: one root.
  return whole === null ? null : foldDots(`/${whole}`.replace(/^\/+/, '/'), POSIX_STYLE);
}

export function stringAt(args: string, index: number): string | null {
  const part = splitArgs(args)[index];
  return part === undefined ? null : firstStringArg(part);
}

/** The paths a successful delete or rename removes or replaces, made absolute. */
export function deletedPaths(call: TracedCall, cwd: string | null): string[] {
  const { name, args } = call;
  const at = (dirIndex: number, nameIndex: number) => {
    const file = stringAt(args, nameIndex);
    return file === null ? null : resolveIn(fdArg(args, dirIndex).path ?? cwd, file);
  };
  const paths =
    name === 'unlinkat'
      ? [at(0, 1)]
      : name === 'renameat' || name === 'renameat2'
        ? [at(0, 1), at(2, 3)]
        : name === 'rename'
          ? [stringAt(args, 0), stringAt(args, 1)].map((p) => (p === null ? null : resolveIn(cwd, p)))
          : [stringAt(args, 0)].map((p) => (p === null ? null : resolveIn(cwd, p)));
  return paths.filter((p): p is string => p !== null);
}

/**
 * The directory a successful chdir or fchdir entered: chdir's string against the old working
 * directory, fchdir's fd by the path -y printed, else by the fd's own open. Null when neither tells.
 */
export function chdirTarget(call: TracedCall, cwd: string | null, pathOfFd: (fd: number) => string | undefined): string | null {
  if (call.name === 'chdir') {
    const name = stringAt(call.args, 0);
    return name === null ? null : resolveIn(cwd, name);
  }
  const fd = firstFd(call.args);
  return fdArg(call.args, 0).path ?? (fd === null ? undefined : pathOfFd(fd)) ?? null;
}
