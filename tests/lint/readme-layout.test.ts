// README's Layout section is where a newcomer looks for a folder: every folder the repo tracks at the top,
// and every folder inside the layers and tests/, is named there (as `name/`), so a new one cannot go unsaid.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** Folders whose sub-folders are listed too: the ones a change is placed in. */
const LISTED_INSIDE = ['core', 'native', 'host', 'probes', 'tests'];

function layoutSection(readme: string): string {
  const start = readme.indexOf('\n## Layout\n');
  const end = readme.indexOf('\n## ', start + 1);
  return start < 0 ? '' : readme.slice(start, end < 0 ? undefined : end);
}

export function unlisted(trackedPaths: readonly string[], layout: string): string[] {
  const folders = new Set<string>();
  for (const path of trackedPaths) {
    const parts = path.split('/');
    if (parts.length < 2 || parts[0]!.startsWith('.')) continue;
    folders.add(`${parts[0]}/`);
    if (parts.length > 2 && LISTED_INSIDE.includes(parts[0]!)) folders.add(`${parts[0]}/${parts[1]}/`);
  }
  const named = (folder: string) =>
    new RegExp(
      String.raw`(^|[\s(])${folder
        .split('/')
        .at(-2)!
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`,
      'm',
    ).test(layout);
  return [...folders].filter((folder) => !named(folder)).sort();
}

it('names a folder that is listed, and misses one that is not', () => {
  const layout = 'core/  pure\n  run/  the supervisor\n';
  expect(unlisted(['core/a.ts', 'core/run/b.ts', 'core/stacks/c.ts', 'docs/x.md', '.github/y.yml'], layout)).toEqual(['core/stacks/', 'docs/']);
});

it('lists every folder the repo tracks in README.md', () => {
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  expect(unlisted(tracked, layoutSection(readFileSync(join(ROOT, 'README.md'), 'utf8')))).toEqual([]);
});
