// Run first by `npm start`, `npm test` and `npm run test:quick`: on a Node older than package.json's
// engines line, one line that says so and how to get a newer one, instead of errors further in.
// CommonJS and plain syntax, so that any old Node can run it.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const engines = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines.node;
const wanted = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines);
if (!wanted) throw new Error('package.json engines.node is not of the form >=X.Y: ' + engines);
const need = wanted.slice(1).map((n) => Number(n || 0));
const have = process.versions.node.split('.').map(Number);
// The first part that differs decides: 22.11 < 22.12 < 23.0.
const difference = need.map((n, i) => (have[i] || 0) - n).find((d) => d !== 0) || 0;
if (difference < 0) {
  const where = `Node ${process.versions.node} (${process.execPath})`;
  process.stderr.write(`holdwatch needs Node ${engines}; this is ${where}: install Node 24 (or run \`npx node@24\`), see README "Node"\n`);
  process.exit(1);
}
