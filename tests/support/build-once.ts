// vitest globalSetup (integration, ui, wine): those tests run the built CLI and modules, so build
// the Node side (incrementally) first, and the CLI's bundle. The unit tier runs sources only and needs no build.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [root + 'node_modules/typescript/bin/tsc', '-b', root + 'tsconfig.json'], { stdio: 'inherit' });
  // bin/holdwatch.js runs the bundle of what tsc just built: bundled again, or the tests would run stale code.
  execFileSync(process.execPath, [root + 'scripts/bundle-cli.mjs'], { stdio: 'inherit' });
}
