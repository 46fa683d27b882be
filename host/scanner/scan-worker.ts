// The scanner worker that a host starts, elevated on Windows ("Scan as administrator"), as
// `holdwatch scan-worker --pipe <p> --token <t>` or the desktop app's own executable: it connects to
// the host's pipe, proves itself with the token, serves scans, and returns when the pipe closes (the
// host ended it or died), so the worker is never left behind.
import { connect, type Socket } from 'node:net';
import { BadInputError } from '../../core/errors.js';
import { adoptHostIdentityClock, openHolderSource, runsElevated } from '../../native/index.js';
import { serveHolderSource } from '../../native/remote/serve-holder-source.js';

export interface ScanWorkerOptions {
  pipe?: string;
  token?: string;
}

/** Serves scans until the host closes the pipe; resolves to the exit code. */
export async function serveScanWorker({ pipe, token }: ScanWorkerOptions): Promise<number> {
  if (!pipe || !token) throw new BadInputError('scan-worker is started by holdwatch ui (it needs --pipe and --token)');
  if (!/^[0-9a-f]{16,256}$/.test(token)) throw new BadInputError('scan-worker: --token must be the hex token holdwatch ui gave it');
  const socket = await connectTo(pipe);
  await adoptHostIdentityClock();
  const source = await openHolderSource({ threads: 2 });
  try {
    await serveHolderSource(socket, source, { token, elevated: await runsElevated() });
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
