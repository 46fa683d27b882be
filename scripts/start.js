// `npm start`: the desktop app. When Electron's binary is absent (an offline install: the electron
// package downloads it on first use and that download cannot happen), say so in one line and serve
// the same UI with `holdwatch ui` in the browser instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const electronDir = root + 'node_modules/electron/';

/** Electron's own lookup (node_modules/electron/index.js) downloads when missing; look without it. */
function electronBinary() {
  try {
    const relative = readFileSync(electronDir + 'path.txt', 'utf8').trim();
    const binary = electronDir + 'dist/' + relative;
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (binary) {
  // The app's folder, whose package.json names the Electron main process (the project's `main` is the library).
  const child = spawn(binary, [root + 'electron/dev-app', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.stderr.write("holdwatch: Electron's binary is not installed here; opening `holdwatch ui` in your browser instead\n");
  const { main } = await import('../dist/cli/main.js');
  // `npm start -- <dir> [ui options]` opens the app on <dir>; `holdwatch ui` takes it as --watch.
  const [first, ...rest] = process.argv.slice(2);
  await main(['ui', ...(first === undefined ? [] : first.startsWith('-') ? [first] : ['--watch', first]), ...rest]);
}
