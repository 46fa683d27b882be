// The key of the Go exec program's build: the sha256 of its sources, remembered beside the builds by
// the sources' stat signature (device, inode, size, mtime), the way make and git's index trust a file
// unchanged. A run's start, whatever its runner, names the program's path; with the key remembered it
// reads a few stats, not node:crypto (the largest built-in it would load) and every source.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writePrivateFile } from '../../private-files.js';

const MEMO_FILE = 'sources-key.json';

/** `sources` (paths under `probesDir`) hashed, or the key remembered in `buildsDir` for them as they are now. */
export function goExecSourcesKey(buildsDir: string, probesDir: string, sources: readonly string[]): string {
  const signature = sources
    .map((source) => {
      const stat = statSync(join(probesDir, source), { bigint: true });
      return `${source}:${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}`;
    })
    .join(',');
  const memo = join(buildsDir, MEMO_FILE);
  const remembered = readMemo(memo);
  if (remembered?.signature === signature) return remembered.key;
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const source of sources) hash.update(readFileSync(join(probesDir, source)));
  const key = hash.digest('hex').slice(0, 16);
  writeMemo(memo, { signature, key });
  return key;
}

interface Memo {
  signature: string;
  key: string;
}

function readMemo(path: string): Memo | null {
  try {
    const memo = JSON.parse(readFileSync(path, 'utf8')) as Partial<Memo>;
    return typeof memo.signature === 'string' && typeof memo.key === 'string' && /^[0-9a-f]{16}$/.test(memo.key) ? (memo as Memo) : null;
  } catch {
    return null; // none yet, or unreadable: hashed again
  }
}

/** Written whole, then renamed into place: two runs starting at once never read half a memo. */
function writeMemo(path: string, memo: Memo): void {
  const partial = `${path}.${process.pid}.partial`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writePrivateFile(partial, JSON.stringify(memo));
    renameSync(partial, path);
  } catch {
    // A data dir without room, or with a file where its dir should be, costs the next run a hash, nothing more.
    // (Asked first: rmSync's force forgives a missing file, not a file standing where a dir should be.)
    if (existsSync(partial)) rmSync(partial, { force: true });
  }
}
