// `npm run smoke:electron [-- --executable <installed or packaged holdwatch>]`, after `npm run build`:
// launches the desktop app with Playwright's Electron driver on a temp dir that a real node child
// holds, checks the holder appears in the window with its process name (holder-check.mjs, the check
// the UI tests run here against `holdwatch ui`), then ends the child and closes the app. One line,
// exit 0 when seen, 1 when not (or the app could not start), 2 on bad arguments.
// Linux needs a display: `xvfb-run npm run smoke:electron`. Unpackaged, the app's folder is electron/dev-app
// (its package.json names the main process; the project's own `main` is the library).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron } from 'playwright-core';
import { expectHolderShown, startHeldDir } from './holder-check.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOT = join(ROOT, 'test-artifacts', 'smoke', 'electron-window.png');

function parseArguments(argv) {
  if (argv.length === 0) return {};
  if (argv.length === 2 && argv[0] === '--executable') return { executable: argv[1] };
  return { error: `expected no arguments or --executable <path to holdwatch>, got: ${argv.join(' ')}` };
}

/** Why the app cannot be launched from this checkout, or null. Never triggers electron's download. */
function launchProblem(executable) {
  if (executable) return existsSync(executable) ? null : `no such executable: ${executable}`;
  if (!existsSync(join(ROOT, 'dist', 'electron', 'main.js'))) return 'the app is not built: run `npm run build` first';
  try {
    const binary = join(ROOT, 'node_modules', 'electron', 'dist', readFileSync(join(ROOT, 'node_modules', 'electron', 'path.txt'), 'utf8').trim());
    return existsSync(binary) ? null : `Electron's binary is missing (${binary})`;
  } catch {
    return "Electron's binary is not installed (npm ci downloads it; this machine did not)";
  }
}

async function smoke(executable) {
  const held = await startHeldDir();
  const scratch = mkdtempSync(join(tmpdir(), 'hw-smoke-app-'));
  let app;
  try {
    // Its own profile and data dir: a holdwatch the user has open must not take the single-instance lock.
    const switches = [`--user-data-dir=${join(scratch, 'profile')}`];
    app = await _electron.launch({
      ...(executable ? { executablePath: executable, args: [...switches, held.dir] } : { args: [...switches, join(ROOT, 'electron', 'dev-app'), held.dir] }),
      cwd: scratch,
      env: { ...process.env, HOLDWATCH_DATA_DIR: join(scratch, 'data') },
      timeout: 60_000,
    });
    const page = await app.firstWindow();
    try {
      return await expectHolderShown(page, held, 45_000);
    } finally {
      mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT }).catch(() => undefined);
    }
  } finally {
    await app?.close().catch(() => undefined);
    await held.stop();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

const options = parseArguments(process.argv.slice(2));
if (options.error) {
  process.stderr.write(`smoke:electron: ${options.error}\n`);
  process.exit(2);
}
const problem = launchProblem(options.executable);
if (problem) {
  process.stderr.write(`smoke:electron: FAILED, nothing launched: ${problem}\n`);
  process.exit(1);
}
try {
  const seen = await smoke(options.executable);
  process.stdout.write(`smoke:electron: ok, the app ${seen} (screenshot: ${SCREENSHOT})\n`);
} catch (error) {
  process.stderr.write(`smoke:electron: FAILED: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
  process.exitCode = 1;
}
