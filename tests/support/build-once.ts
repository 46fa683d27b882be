// vitest globalSetup (integration, ui, wine): those tests run the built CLI and modules, so build
// the Node side (incrementally) first. The unit tier runs sources only and needs no build.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [root + 'node_modules/typescript/bin/tsc', '-b', root + 'tsconfig.json'], { stdio: 'inherit' });
}
