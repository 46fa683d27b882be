import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldNodeTestOptions, nodeTestFiles } from '../../contract/node-test-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-node-test-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command line of the process `node --test` runs a test file in, as /proc shows it (NUL-separated words). */
function realWorkerCommandLine(): string {
  const file = join(dir, 'store.test.mjs');
  const out = join(dir, 'cmdline');
  writeFileSync(
    file,
    `import { test } from 'node:test';\nimport { readFileSync, writeFileSync } from 'node:fs';\ntest('x', () => writeFileSync(${JSON.stringify(out)}, readFileSync('/proc/self/cmdline')));\n`,
  );
  const run = spawnSync(process.execPath, ['--test', 'store.test.mjs'], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  return readFileSync(out, 'utf8').replace(/\0$/, '').split('\0').join(' ');
}

describe('a node:test file process', () => {
  it.skipIf(process.platform !== 'linux')("is shown by its test file, Node's own options folded", () => {
    const commandLine = realWorkerCommandLine();
    expect(commandLine.length).toBeGreaterThan(200);
    expect(nodeTestFiles(commandLine)).toEqual(['store.test.mjs']);
    expect(foldNodeTestOptions(commandLine)).toMatch(/^\S*node store\.test\.mjs \(\+\d+ Node options\)$/);
  });

  it('is told from its runner and from other commands', () => {
    expect(nodeTestFiles('node --test test/')).toBeNull();
    expect(nodeTestFiles('node --test-reporter=tap --test test/')).toBeNull();
    expect(nodeTestFiles('node server.js --port 3000')).toBeNull();
    expect(nodeTestFiles('python3 --test-x a.py')).toBeNull();
    expect(foldNodeTestOptions('python3 -m pytest tests')).toBe('python3 -m pytest tests');
    expect(foldNodeTestOptions('C:\\node\\node.exe --test-timeout=0 --stack-trace-limit=10 test\\a.test.js')).toBe(
      'C:\\node\\node.exe test\\a.test.js (+2 Node options)',
    );
  });
});
