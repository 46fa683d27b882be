// `holdwatch close <pid> <handle> --under <dir> [--yes]`: closes one handle in another process
// (Windows), after saying what may break. The handle is named first and the question names that file;
// the close then names it again and goes ahead only while it is still the same file of the same
// process (native/win32/close-handle.ts). Without a terminal and without --yes nobody can answer:
// refused (exit 2), never assumed.
import { EXIT_CLOSE_DECLINED } from '../contract/exit-codes.js';
import { CLOSE_WARNING, LINUX_CLOSE_REFUSAL, refusalToCloseHandle } from '../core/close-policy.js';
import { BadInputError } from '../core/errors.js';
import { withHandleToClose } from '../host/holdwatch.js';
import { askYesNo } from './confirm.js';

export interface CloseOptions {
  under: string;
  yes?: boolean;
}

export async function closeCommand(pidInput: string, handle: string, options: CloseOptions): Promise<number> {
  if (!/^\d+$/.test(pidInput) || Number(pidInput) <= 0 || !Number.isSafeInteger(Number(pidInput))) {
    throw new BadInputError(`expected a process id, got "${pidInput}"`);
  }
  if (process.platform === 'linux') throw new BadInputError(LINUX_CLOSE_REFUSAL);
  if (!options.yes && !process.stdin.isTTY) throw new BadInputError('close asks before it closes: run it in a terminal, or pass --yes');
  const pid = Number(pidInput);
  return withHandleToClose(pid, handle, options.under, async ({ info, named, close }) => {
    const refusal = refusalToCloseHandle(handle, pid, named, named.path);
    if (refusal !== null) throw new BadInputError(refusal);
    const question = `Close handle ${handle} of ${info.name} (PID ${pid}) on ${named.path}? ${capitalised(CLOSE_WARNING)}.`;
    if (!options.yes && !(await askYesNo(question, process.stdin, process.stderr))) {
      process.stderr.write('holdwatch: nothing closed\n');
      return EXIT_CLOSE_DECLINED;
    }
    await close();
    process.stdout.write(`closed handle ${handle} of ${info.name} (PID ${pid}): ${named.path}\n`);
    return 0;
  });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
