// The packaged app's archive (electron-builder.yml): every file another program or a worker loads
// must be unpacked, with every module it imports. python.exe and a user's node.exe cannot read inside
// app.asar at all; the name worker (Electron as Node), the worker threads and the CLI child load from
// app.asar.unpacked (core/asar-unpacked.ts), where a module whose import stayed in the archive is
// "Cannot find module". Read from the sources, so the check needs no build and no Electron download.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/cli.js';

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
}

const config = parse(readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** What runs outside the app's own module loader, by its source file. */
const ENTRIES = [
  'native/win32/name-worker.ts',
  'native/win32/dump-writer.ts',
  'native/threaded/holder-thread.ts',
  'native/win32/shell-execute-thread.ts',
  'native/linux/scan-worker.ts',
  // bin/holdwatch.js: dist/cli/main.js on Windows, the bundle elsewhere.
  'cli/main.ts',
];

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The source's imports that survive compilation: relative modules and packages. */
function importsOf(source: string): string[] {
  const text = readFileSync(join(REPO_ROOT, source), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!).filter((specifier) => !specifier.startsWith('node:'));
}

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** A package and what it depends on, as installed. */
function packageClosure(name: string, seen: Set<string>): void {
  if (seen.has(name)) return;
  seen.add(name);
  const manifest = join(REPO_ROOT, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return;
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
  for (const dependency of Object.keys(dependencies)) packageClosure(dependency, seen);
}

/** Every file the packaged app must hold unpacked for `entries` to load: dist/*.js and node_modules/<pkg>/. */
function loadedFiles(entries: readonly string[]): string[] {
  const sources = new Set<string>();
  const packages = new Set<string>();
  const visit = (source: string) => {
    if (sources.has(source)) return;
    sources.add(source);
    for (const specifier of importsOf(source)) {
      if (!specifier.startsWith('.')) packageClosure(packageName(specifier), packages);
      else visit(posix.join(posix.dirname(source), specifier).replace(/\.js$/, '.ts'));
    }
  };
  entries.forEach(visit);
  const built = [...sources].map((source) => `dist/${source.replace(/\.ts$/, '.js')}`);
  const probes = readdirSync(join(REPO_ROOT, 'probes'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => posix.join(posix.relative(REPO_ROOT, entry.parentPath.split('\\').join('/')), entry.name));
  return [...built, ...probes, 'bin/holdwatch.js', 'dist/cli-bundle/main.mjs', ...[...packages].map((name) => `node_modules/${name}/package.json`)];
}

const inArchive = (file: string, globs: readonly string[]) => globs.some((glob) => matchesGlob(file, glob));

function stillPacked(globs: readonly string[]): string[] {
  return loadedFiles(ENTRIES).filter((file) => !inArchive(file, globs));
}

describe('the packaged app (electron-builder.yml)', () => {
  it('unpacks the probes, the name worker, the worker threads, the CLI and everything they import', () => {
    expect(stillPacked(config.asarUnpack)).toEqual([]);
  });

  it('the check sees the name worker and the worker threads left in the archive (the probes-and-koffi-only list)', () => {
    const missing = stillPacked(['node_modules/koffi/**/*', 'node_modules/@koromix/**/*', 'probes/**/*']);
    expect(missing).toEqual(
      expect.arrayContaining([
        'dist/native/win32/name-worker.js',
        'dist/native/threaded/holder-thread.js',
        'dist/native/win32/shell-execute-thread.js',
        'dist/contract/name-worker.js',
        'bin/holdwatch.js',
        'node_modules/zod/package.json',
      ]),
    );
  });

  it('the unpacked files are packaged at all (files:)', () => {
    const files = config.files.filter((glob) => !glob.startsWith('!'));
    expect(loadedFiles(ENTRIES).filter((file) => !file.startsWith('node_modules/') && !inArchive(file, files))).toEqual([]);
  });
});
