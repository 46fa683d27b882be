// The desktop app's main process: one host session served over IPC to one hardened window. No logic
// that core or the session could hold lives here.
import { join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, session as electronSession, shell } from 'electron';
import { isUnder, POSIX_STYLE, WINDOWS_STYLE } from '../core/paths.js';
import { dataDirOf } from '../host/data-dir.js';
import { RENDERER_DIR } from '../host/install-paths.js';
import { RecentDirs } from '../host/recent-dirs.js';
import { serveScanWorker } from '../host/scanner/scan-worker.js';
import { HostSession } from '../host/session/host-session.js';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol.js';
import { dirToOpenFrom } from './dir-argument.js';
import { scanWorkerArguments } from './worker-args.js';
import { forwardEvents, serveServiceOverIpc } from './ipc-host.js';
import { loadWindowState, saveWindowState } from './window-state.js';
import { messageOf } from '../core/errors.js';

const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url));

// "Scan as administrator" starts this same executable elevated (ShellExecuteEx cannot pass
// ELECTRON_RUN_AS_NODE, so the app itself must know the worker's arguments): it serves scans and
// never opens a window nor takes the single-instance lock, which would hand it to the open app.
const workerArgs = scanWorkerArguments(process.argv);
if (workerArgs) {
  serveScanWorker(workerArgs).then(
    (code) => app.exit(code),
    (error: unknown) => {
      process.stderr.write(`holdwatch: ${messageOf(error)}\n`);
      app.exit(2);
    },
  );
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  let window: BrowserWindow | null = null;
  const argvContext = (workingDirectory: string) => ({ packaged: app.isPackaged, workingDirectory, platform: process.platform });
  const dirToOpen = dirToOpenFrom(process.argv, argvContext(process.cwd()));
  // Explorer starts "Which process holds this folder?" inside that folder. Step out before Chromium
  // starts its GPU and renderer processes: they inherit the current directory, and on Windows a current
  // directory is an open handle that would make holdwatch the holder.
  if (dirToOpen && 'dir' in dirToOpen) stepOutOf(dirToOpen.dir);
  // Unpackaged, Electron runs `electron <app dir> ...`: the worker needs the app dir before its arguments.
  const scanWorker = { program: process.execPath, prefixArgs: app.isPackaged ? [] : [app.getAppPath()], socketDir: app.getPath('userData') };
  const session = new HostSession({
    recentDirs: new RecentDirs(join(app.getPath('userData'), 'recent-dirs.json')),
    ownPids: [process.pid],
    scanWorker,
    dataDir: dataDirOf(process.env, process.platform),
    env: process.env,
    workingDirectory: process,
    dirToOpen,
    onListenerError: (error) => process.stderr.write(`holdwatch: a window missed an event: ${messageOf(error)}\n`),
  });

  app.on('second-instance', (_event, argv, workingDirectory) => {
    // `holdwatch <dir>` (or the context menu) while the app runs: the open window turns to that dir.
    const request = dirToOpenFrom(argv, argvContext(workingDirectory));
    if (request) session.requestOpenDir(request);
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  app
    .whenReady()
    .then(() => {
      serveRenderer(RENDERER_DIR);
      // No camera, microphone, notifications, geolocation...: the UI needs only the clipboard write.
      electronSession.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
      serveServiceOverIpc(session, (contents) => window !== null && contents === window.webContents);
      window = createWindow(session);
      window.on('closed', () => (window = null));
    })
    .catch((error: unknown) => {
      // Nothing would open and nothing would say why: say it, and quit.
      process.stderr.write(`holdwatch: the window could not be opened: ${messageOf(error)}\n`);
      app.exit(1);
    });

  app.on('web-contents-created', (_event, contents) => {
    // Nothing navigates away or opens windows; links to the web open in the user's browser.
    contents.on('will-navigate', (event, url) => {
      if (new URL(url).origin !== APP_ORIGIN) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => void session.dispose().catch((error: unknown) => process.stderr.write(`holdwatch: ${messageOf(error)}\n`)));
}

function stepOutOf(dir: string): void {
  const cwd = process.cwd();
  if (isUnder(cwd, dir, process.platform === 'win32' ? WINDOWS_STYLE : POSIX_STYLE)) process.chdir(parse(cwd).root);
}

function createWindow(service: HostSession): BrowserWindow {
  const state = loadWindowState(app.getPath('userData'));
  const window = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 800,
    minHeight: 500,
    title: 'holdwatch',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => saveWindowState(app.getPath('userData'), { ...window.getNormalBounds(), maximized: window.isMaximized() }));
  forwardEvents(service, window.webContents);
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}
