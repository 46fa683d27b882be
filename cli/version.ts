// holdwatch's own version, from package.json (read once).
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function holdwatchVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
