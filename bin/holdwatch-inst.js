#!/usr/bin/env node
// Runs the built CLI (npm ci builds it in `prepare`), from any working directory: the bundle of
// dist/cli (scripts/bundle-cli.mjs says why one file set, not tsc's 190 modules). On Windows the
// modules as tsc built them, for now: under Wine the bundled `attach` missed an announced run's held
// file in 2 of 9 runs of tests/wine (0 of 12 unbundled), and the cause is not found yet.
const entry = process.platform === 'win32' ? '../dist/cli/main.js' : '../dist/cli-bundle-inst/main.mjs';
const { main } = await import(entry);

main(process.argv.slice(2));
