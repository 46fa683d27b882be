// holdwatch's own version, from package.json (read once).
import { readFileSync } from 'node:fs';
import { PACKAGE_JSON } from './install-paths.js';

let version: string | undefined;

export function holdwatchVersion(): string {
  version ??= (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
  return version;
}
