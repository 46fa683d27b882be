// vitest globalSetup (ui): the renderer too, rebuilt by vite only when its sources changed since the
// last build.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const built = mtimeMs(join(root, 'dist/renderer/index.html'));
  const sources = [join(root, 'renderer'), join(root, 'contract'), join(root, 'vite.config.ts')];
  if (built === 0 || sources.some((s) => newestMs(s) > built)) {
    execFileSync(process.execPath, [root + 'node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  }
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMs(join(path, name))));
}
