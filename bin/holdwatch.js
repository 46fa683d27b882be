#!/usr/bin/env node
// Runs the built CLI (npm ci builds it in `prepare`), from any working directory: the bundle of
// dist/cli (scripts/bundle-cli.mjs says why one file set, not tsc's modules). On Windows the modules
// as tsc built them: the bundle is not yet trusted there (the Wine suite's `attach` tests decide).
const entry = process.platform === 'win32' ? '../dist/cli/main.js' : '../dist/cli-bundle/main.mjs';
const { main } = await import(entry);

main(process.argv.slice(2));
