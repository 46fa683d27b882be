// `holdwatch ui [--port n] [--no-open]`: the renderer in a browser, for a desktop without Electron or a
// headless machine. Prints the URL (token included) on stdout; Ctrl-C / SIGTERM close everything, exit 0.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BadInputError } from '../core/errors.js';
import { dataDir } from './data-dir.js';
import { RecentDirs } from './ui-recent-dirs.js';
import { startUiServer } from './ui-server.js';
import { UiSession } from './ui-session.js';

/** Where vite puts the renderer: dist/renderer, beside dist/cli. */
export const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));
/** The CLI's entry, which the scanner worker runs as `scan-worker`. */
const CLI_SCRIPT = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));

export interface UiOptions {
  port: number;
  open: boolean;
}

export async function uiCommand(options: UiOptions): Promise<number> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new BadInputError(`the UI is not built (no ${RENDERER_DIR}index.html): run \`npm run build\``);
  const scanWorker = { program: process.execPath, prefixArgs: [CLI_SCRIPT], socketDir: dataDir(), sameRights: process.env.HOLDWATCH_TEST_SCANNER_SAME_RIGHTS === '1' };
  const session = new UiSession({ recentDirs: new RecentDirs(join(dataDir(), 'recent-dirs.json')), ownPids: [process.pid], scanWorker });
  try {
    const server = await startUiServer({ service: session, port: options.port, staticDir: RENDERER_DIR });
    try {
      process.stdout.write(`${server.url}\n`);
      process.stderr.write('holdwatch: the UI is served on 127.0.0.1 only — Ctrl-C to stop\n');
      if (options.open) openBrowser(server.url);
      await stopSignal();
    } finally {
      await server.close();
    }
  } finally {
    await session.dispose();
  }
  return 0;
}

function openBrowser(url: string): void {
  const [command, args] = process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : process.platform === 'darwin' ? ['open', [url]] : ['xdg-open', [url]];
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
