#!/usr/bin/env node
// Runs the built CLI (npm ci builds it in `prepare`), from any working directory.
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2));
