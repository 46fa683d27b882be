// The host behind `holdwatch ui`: one HostSession served by the web host on 127.0.0.1. The CLI starts
// it and prints its URL; tests start it with options the CLI does not offer (a same-rights worker).
import { join } from 'node:path';
import type { DirToOpen } from '../../contract/service.js';
import { DisposableStore } from '../../core/disposable-store.js';
import { RENDERER_DIR } from '../install-paths.js';
import { RecentDirs } from '../recent-dirs.js';
import type { WorkingDirectory } from '../resolve-dir.js';
import { HostSession, type ScanWorkerLaunch } from '../session/host-session.js';
import { startUiServer } from './ui-server.js';

export interface UiHostOptions {
  port: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  workingDirectory: WorkingDirectory;
  scanWorker?: ScanWorkerLaunch;
  /** `holdwatch ui --watch <dir>`, checked: the page opens onto watching it. */
  dirToOpen?: DirToOpen | null;
  /** A page's socket threw on an event: the CLI says so on stderr. */
  onListenerError: (error: unknown) => void;
  /** The built renderer; the package's own by default. */
  staticDir?: string;
}

export interface UiHost {
  /** Open this: it carries the access token. */
  url: string;
  close(): Promise<void>;
}

export async function startUiHost(options: UiHostOptions): Promise<UiHost> {
  const { dataDir, env, workingDirectory, scanWorker, dirToOpen, onListenerError } = options;
  const session = new HostSession({
    recentDirs: new RecentDirs(join(dataDir, 'recent-dirs.json')),
    ownPids: [process.pid],
    dataDir,
    env,
    workingDirectory,
    dirToOpen,
    onListenerError,
    ...(scanWorker ? { scanWorker } : {}),
  });
  // The server stops before the session it serves.
  const owned = new DisposableStore();
  owned.add(session);
  try {
    const server = await startUiServer({ service: session, port: options.port, staticDir: options.staticDir ?? RENDERER_DIR });
    owned.defer(() => server.close());
    return { url: server.url, close: () => owned.dispose() };
  } catch (error) {
    await owned.dispose();
    throw error;
  }
}
