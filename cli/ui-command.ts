// `holdwatch ui [--port n] [--no-open] [--watch dir]`: the renderer in a browser, for a desktop without Electron or a
// headless machine. Prints the URL (token in its fragment) on stdout, which only this terminal sees; the
// browser is opened on a 0600 launcher file instead, so the token is on no command line. Ctrl-C /
// SIGTERM close everything, exit 0.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BadInputError, messageOf } from '../core/errors.js';
import { dataDirOf } from '../host/data-dir.js';
import { checkDirToOpen } from '../host/dir-to-open.js';
import { CLI_SCRIPT, RENDERER_DIR } from '../host/install-paths.js';
import { writeBrowserLauncher, type BrowserLauncher } from '../host/web/browser-launcher.js';
import { startUiHost } from '../host/web/ui-host.js';

export interface UiOptions {
  port: number;
  open: boolean;
  /** The page opens onto watching it; checked as the desktop app checks its argument. */
  watch?: string;
}

const onListenerError = (error: unknown) => process.stderr.write(`holdwatch: a page missed an event: ${messageOf(error)}\n`);

export async function uiCommand(options: UiOptions): Promise<number> {
  const dirToOpen = options.watch === undefined ? null : checkDirToOpen(resolve(process.cwd(), options.watch));
  if (dirToOpen && 'problem' in dirToOpen) throw new BadInputError(dirToOpen.problem);
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new BadInputError(`the UI is not built (no ${RENDERER_DIR}index.html): run \`npm run build\``);
  const dataDir = dataDirOf(process.env, process.platform);
  const scanWorker = { program: process.execPath, prefixArgs: [CLI_SCRIPT], socketDir: dataDir };
  const host = await startUiHost({ port: options.port, dataDir, env: process.env, workingDirectory: process, scanWorker, dirToOpen, onListenerError });
  let launcher: BrowserLauncher | null = null;
  try {
    process.stdout.write(`${host.url}\n`);
    process.stderr.write('holdwatch: the UI is served on 127.0.0.1 only — Ctrl-C to stop\n');
    if (options.open) {
      launcher = writeBrowserLauncher(dataDir, host.url);
      openBrowser(launcher.path);
    }
    await stopSignal();
  } finally {
    launcher?.remove();
    await host.close();
  }
  return 0;
}

function openBrowser(file: string): void {
  const [command, args] =
    process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', file]] : process.platform === 'darwin' ? ['open', [file]] : ['xdg-open', [file]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write('holdwatch: could not open a browser; open the URL above yourself\n'));
  child.unref();
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
