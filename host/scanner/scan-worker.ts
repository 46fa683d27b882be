// The scanner worker that a host starts, elevated on Windows ("Scan as administrator"), as
// `holdwatch scan-worker --pipe <p> --token <t>` or the desktop app's own executable: it connects to
// the host's pipe, proves itself with the token, serves scans, and returns when the pipe closes (the
// host ended it or died), so the worker is never left behind.
import { connect, type Socket } from 'node:net';
import { BadInputError } from '../../core/errors.js';
import { adoptHostIdentityClock, closeHandleIfSame, openHolderSource, openPipeServerGuard, runsElevated } from '../../native/index.js';
import { serveHolderSource } from '../../native/remote/serve-holder-source.js';

export interface ScanWorkerOptions {
  pipe?: string;
  token?: string;
  /** The host's pid: on Windows the pipe's server must be it (see native/win32/pipe-server-check.ts). */
  hostPid?: string;
}

/** Serves scans until the host closes the pipe; resolves to the exit code. */
export async function serveScanWorker({ pipe, token, hostPid }: ScanWorkerOptions): Promise<number> {
  if (!pipe || !token) throw new BadInputError('scan-worker is started by holdwatch ui (it needs --pipe and --token)');
  if (!/^[0-9a-f]{16,256}$/.test(token)) throw new BadInputError('scan-worker: --token must be the hex token holdwatch ui gave it');
  if (hostPid !== undefined && !/^[1-9]\d{0,9}$/.test(hostPid)) throw new BadInputError('scan-worker: --host-pid must be the pid of holdwatch ui');
  const guard = await openPipeServerGuard();
  if (guard && hostPid === undefined) throw new BadInputError('scan-worker: --host-pid is needed on Windows (holdwatch ui gives it)');
  const before = guard?.snapshot();
  const socket = await connectTo(pipe);
  const refusal = guard && before ? guard.refusal(before, Number(hostPid)) : null;
  if (refusal !== null) {
    // Not a byte written: no token, and nothing the server could impersonate us by.
    socket.destroy();
    throw new BadInputError(`scan-worker: ${refusal}; refusing to connect`);
  }
  await adoptHostIdentityClock();
  // The app it scans for runs from wherever it was unpacked (the portable build: %TEMP%): never a holder.
  const source = await openHolderSource({ walkThread: 'worker', ...(hostPid === undefined ? {} : { ownPids: [Number(hostPid)] }) });
  try {
    await serveHolderSource(socket, source, { token, elevated: await runsElevated(), closeHandle: (target, path) => closeHandleIfSame(target, path) });
  } finally {
    socket.destroy();
    await source.dispose();
  }
  return 0;
}

function connectTo(pipe: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(pipe);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (error: NodeJS.ErrnoException) => reject(new BadInputError(`scan-worker: cannot connect to ${pipe} (${error.code ?? error.message})`));
    socket.once('error', onError);
  });
}
