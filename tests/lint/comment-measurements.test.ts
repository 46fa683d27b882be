// Product comments say why in the present tense; a measurement, a run tally or a date belongs in the
// bench's output and in a commit body (STYLE.md 12). This finds the shapes a lab notebook leaves
// behind: "measured", a before -> after pair, N of M runs, a median, a date, a timing with "took".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** What ships or builds what ships; bench/ and tests/ are where measurements belong. */
const PRODUCT = ['contract', 'core', 'native', 'host', 'cli', 'electron', 'renderer', 'probes', 'bin', 'scripts', 'index.ts'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|py|sh|go|css)$/;

/** Files whose owners are rewriting them now; each entry names the lines left to rewrite. */
const PENDING = new Set<string>([]);

const TIME = String.raw`\d+(?:[.,]\d+)? ?(?:ms|us|µs|s|min)\b`;
const NOTEBOOK: [string, RegExp][] = [
  ['"measured"', /\bmeasured\b/i],
  ['a date', /\b20\d\d-\d\d-\d\d\b/],
  ['a run tally', /\b\d+ of \d+ (?:runs|rounds|tries)\b/i],
  ['a median or a "fastest of"', /\b(?:median|fastest of)\b/i],
  ['a timing that "took"', new RegExp(String.raw`\btook ${TIME}`, 'i')],
  ['a before/after pair', new RegExp(String.raw`\d+(?:[.,]\d+)?(?: ?(?:ms|us|µs|s|min)\b)?.{0,20}(?:->|→|instead of|\bvs\.?) ?~?${TIME}`, 'i')],
  ['a "went from"', /\bwent from\b/i],
];

function productFiles(path: string): string[] {
  if (statSync(path).isFile()) return SOURCE.test(path) && !/\.test\.ts$/.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (name === 'node_modules' || name === 'dist' ? [] : productFiles(join(path, name))));
}

/** The comment part of a line: after `//` or `#`, or a line inside a block comment. Code's own strings are left out roughly. */
function commentOf(line: string): string | null {
  const trimmed = line.trim();
  if (/^(\/\/|#|\*|\/\*)/.test(trimmed)) return trimmed;
  const at = line.search(/\s(\/\/|#) /);
  return at >= 0 ? line.slice(at) : null;
}

export function notebookLines(text: string): { line: number; what: string; text: string }[] {
  const found: { line: number; what: string; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    const comment = commentOf(line);
    if (comment === null) return;
    for (const [what, pattern] of NOTEBOOK) if (pattern.test(comment)) found.push({ line: i + 1, what, text: comment.slice(0, 120) });
  });
  return found;
}

it('finds the shapes of a lab notebook in a comment, and not a reason with a number in it', () => {
  const diary = [
    '// measured on 2,250 links, the walk took 16.7 ms',
    '// On 2026-12-03: 1.53x median of 15 rounds',
    '// missed a held file in 2 of 9 runs',
    '// --help went from 0.55 s to ~0.1 s',
    '# 20,000 rows sorted in 44 instead of 142 ms',
    'const x = 1; // 52 ms -> 4 ms per diff',
  ].join('\n');
  expect(notebookLines(diary).map((f) => f.line)).toEqual([1, 1, 2, 2, 3, 4, 5, 6]);
  const reasons = [
    '// a reused pid cannot start within 50 ms of the first (the pid space would have to wrap)',
    '/** How often the module list is re-read (default 2000 ms; 0 = every scan). */',
    "const s = 'took 5 ms'; // a string in code is not a comment",
  ].join('\n');
  expect(notebookLines(reasons)).toEqual([]);
});

it('finds none in a product comment', () => {
  const offenders = PRODUCT.flatMap((entry) => productFiles(join(ROOT, entry)))
    .map((path) => relative(ROOT, path).split('\\').join('/'))
    .filter((path) => !PENDING.has(path))
    .flatMap((path) => notebookLines(readFileSync(join(ROOT, path), 'utf8')).map((f) => `${path}:${f.line} (${f.what}) ${f.text}`));
  expect(offenders).toEqual([]);
});
