// Bundles the CLI (dist/cli/main.js and what it imports, tsc's output) into dist/cli-bundle/, the
// file bin/holdwatch.js runs. Why: Node's module loader, not holdwatch's code, is most of `run`'s
// start-up, and it loads one bundle far faster than the hundreds of modules tsc writes. Each command stays its own chunk (main imports them
// lazily), so `scan` loads no more than before.
//
// Every module keeps resolving its files from where tsc put it: `import.meta.url` in a bundled
// module is rewritten to that module's own dist/ URL, so the worker threads' scripts
// (new URL('./scan-worker.js', import.meta.url)), the probes (host/install-paths.ts) and koffi's
// require all find what they found unbundled. The workers themselves stay unbundled in dist/.
// Usage: node scripts/bundle-cli.mjs (npm run build runs it after tsc; so does the tests' build-once).
import { rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'cli-bundle');

/** `import.meta.url` of each bundled module, as it was in its own file under dist/. */
const ownUrls = {
  name: 'holdwatch-own-module-urls',
  transform(code, id) {
    if (!code.includes('import.meta.url') || !id.startsWith(join(root, 'dist') + sep)) return null;
    const fromBundle = relative(outDir, id).split(sep).join('/');
    return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), map: null };
  },
};

/**
 * `import { a, b as c } from "node:x"` as `const { a, b: c } = process.getBuiltinModule("node:x")`. An
 * ESM import of a built-in copies every export into a namespace, and so runs every lazy getter: for
 * node:fs that loads fs/promises, streams and readline, a one-shot scan's largest start-up cost after
 * Node's own. getBuiltinModule hands over the CommonJS object as it is.
 */
const builtinsWithoutNamespaces = {
  name: 'holdwatch-builtins-without-namespaces',
  renderChunk(code) {
    let changed = false;
    const out = code.replace(/^import \{([^}]*)\} from "(node:[^"]+)";$/gm, (_line, names, id) => {
      changed = true;
      const bindings = names
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '')
        .map((name) => name.replace(/^(\S+) as (\S+)$/, '$1: $2'));
      return `const { ${bindings.join(', ')} } = process.getBuiltinModule(${JSON.stringify(id)});`;
    });
    if (/^import [^;]*from "node:/m.test(out)) throw new Error('bundle-cli: an import of a built-in in a form this script does not rewrite');
    return changed ? { code: out, map: null } : null;
  },
};

rmSync(outDir, { recursive: true, force: true });
const bundle = await rolldown({
  input: { main: join(root, 'dist', 'cli', 'main.js'), 'compile-cache': join(root, 'dist', 'host', 'compile-cache.js') },
  platform: 'node',
  // koffi is a native addon, loaded by require from its own files; node: modules are Node's.
  external: [/^node:/, 'koffi'],
  plugins: [ownUrls, builtinsWithoutNamespaces],
  logLevel: 'warn',
});
try {
  await bundle.write({ dir: outDir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs', sourcemap: true });
} finally {
  await bundle.close();
}
