// Where holdwatch's data directory is (data-dir.ts says what lives there), in a module of its own: the
// CLI's start finds it (compile-cache.ts) before anything else of ours is loaded.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function dataDirOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (env.HOLDWATCH_DATA_DIR) return env.HOLDWATCH_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'holdwatch');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'holdwatch');
}
