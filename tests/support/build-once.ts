// vitest globalSetup: the integration tests run the built CLI, so build (incrementally) first.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [root + 'node_modules/typescript/bin/tsc', '-b', root + 'tsconfig.json'], { stdio: 'inherit' });
}
