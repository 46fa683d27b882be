// Bundles the CLI (dist/cli/main.js and what it imports, tsc's output) into dist/cli-bundle/, the
// file bin/holdwatch.js runs. Why: Node's module loader, not holdwatch's code, is most of `run`'s
// start-up, and it loads one bundle far faster than the hundreds of modules tsc writes. Each command stays its own chunk (main imports them
// lazily), so `scan` loads no more than before; what a scan loads after the front is one chunk, as is what
// `run` loads before its command starts (commandGroups).
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

/**
 * Two groups of modules, each one chunk, not one per shared corner of the module graph: Node's loader
 * resolves, reads and links every chunk on its own, and a one-shot scan and a short suite's run pay that
 * before they start. The scan group: what `scan` loads beyond the CLI's front (its command, the façade,
 * the Linux walk), which `watch` and `run` load too. The run-start group: what `run` loads before its
 * command starts and no lighter command loads; modules `scan` or the front also load stay out, since
 * the group's top level (its built-ins) runs whole.
 */
const RUN_START = join(root, 'dist', 'cli', 'run-command.js');
const distFile = (file) => join(root, 'dist', ...file.split('/'));
const runStartOnly = new Set();
const scanOnly = new Set();
const commandGroups = {
  name: 'holdwatch-command-groups',
  buildEnd() {
    const closure = (from) => {
      const seen = new Set();
      const visit = (id) => {
        if (seen.has(id)) return;
        seen.add(id);
        const info = this.getModuleInfo(id);
        for (const next of info?.importedIds ?? []) visit(next);
      };
      visit(from);
      return [...seen];
    };
    // What the front loads for every command and what a scan loads, its platform backends included.
    const lighter = new Set(['cli/main.js', 'host/compile-cache.js', 'cli/scan-command.js', 'native/index.js'].flatMap((file) => closure(distFile(file))));
    for (const backend of this.getModuleInfo(distFile('native/index.js'))?.dynamicallyImportedIds ?? []) for (const id of closure(backend)) lighter.add(id);
    for (const id of closure(RUN_START)) if (!lighter.has(id)) runStartOnly.add(id);
    // What a scan loads after the front: its command, the façade and the Linux walk.
    const front = new Set(['cli/main.js', 'host/compile-cache.js'].flatMap((file) => closure(distFile(file))));
    for (const id of [...closure(distFile('cli/scan-command.js')), ...closure(distFile('native/linux/linux-holder-source.js'))])
      if (!front.has(id)) scanOnly.add(id);
  },
};

rmSync(outDir, { recursive: true, force: true });
const bundle = await rolldown({
  input: { main: join(root, 'dist', 'cli', 'main.js'), 'compile-cache': join(root, 'dist', 'host', 'compile-cache.js') },
  platform: 'node',
  // koffi is a native addon, loaded by require from its own files; node: modules are Node's.
  external: [/^node:/, 'koffi'],
  plugins: [ownUrls, builtinsWithoutNamespaces, commandGroups],
  // The run-start group's chunk may re-export from an entry's: entries keep their own exports.
  preserveEntrySignatures: 'allow-extension',
  logLevel: 'warn',
  // The scan group holds native/index.js beside the Linux modules it imports lazily: there such an
  // import loads nothing more, as meant.
  onLog(level, log, handler) {
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && scanOnly.has(log.id ?? '')) return;
    handler(level, log);
  },
});
try {
  await bundle.write({
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].mjs',
    chunkFileNames: '[name]-[hash].mjs',
    sourcemap: true,
    // Only the modules named: a shared one pulled in with them would load the group for every command.
    codeSplitting: {
      groups: [
        { name: 'run-start', test: (id) => runStartOnly.has(id), includeDependenciesRecursively: false },
        { name: 'scan', test: (id) => scanOnly.has(id), includeDependenciesRecursively: false },
      ],
    },
  });
} finally {
  await bundle.close();
}
