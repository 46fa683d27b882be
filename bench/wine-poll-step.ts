// `npm run bench`'s Windows rows on Linux: bench/wine-poll.ts under Wine (scripts/wine-node.sh), when
// the Wine suite's cache is set up (npm run wine:setup); otherwise one SKIP line that says so. Real
// Windows runs the same bench natively: npm run bench:windows (CI's windows jobs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..');
const cache = process.env.HOLDWATCH_WINE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'holdwatch-wine');
const version = /^NODE_WIN_VERSION=(.+)$/m.exec(readFileSync(join(repo, 'scripts', 'wine-setup.sh'), 'utf8'))?.[1];
const nodeExe = join(cache, `node-${version}`, 'node.exe');

if (!existsSync(nodeExe) || spawnSync('wine', ['--version']).status !== 0) {
  console.log(`SKIP  Windows poll rows: Wine and its node.exe are not set up here (npm run wine:setup; ${nodeExe})`);
} else {
  console.log('');
  const run = spawnSync('bash', [join(repo, 'scripts', 'wine-node.sh'), join('dist', 'bench', 'wine-poll.js')], { cwd: repo, stdio: 'inherit' });
  if (run.status !== 0) console.log(`MISS  Windows poll rows: the bench under Wine exited ${run.status ?? run.signal}`);
}
