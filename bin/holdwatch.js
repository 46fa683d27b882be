#!/usr/bin/env node
// Runs the built CLI (npm ci builds it in `prepare`), from any working directory: the bundle of
// dist/cli (scripts/bundle-cli.mjs says why one file set, not tsc's modules). On Windows the modules
// as tsc built them: the bundle is not yet trusted there (the Wine suite's `attach` tests decide).
const win32 = process.platform === 'win32';
const entry = win32 ? '../dist/cli/main.js' : '../dist/cli-bundle/main.mjs';
if (process.argv[2] === 'scan' || process.argv[2] === 'run') {
  // Before the CLI loads: V8's compile cache, where it is safe (host/compile-cache.ts).
  const { enableCompileCacheFor } = await import(win32 ? '../dist/host/compile-cache.js' : '../dist/cli-bundle/compile-cache.mjs');
  enableCompileCacheFor(process.argv.slice(2));
}
const { main } = await import(entry);

main(process.argv.slice(2));
