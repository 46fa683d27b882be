#!/usr/bin/env node
// Runs the built CLI (npm ci builds it in `prepare`), from any working directory: the bundle of
// dist/cli (scripts/bundle-cli.mjs says why one file set, not tsc's 190 modules).
import { main } from '../dist/cli-bundle/main.mjs';

main(process.argv.slice(2));
