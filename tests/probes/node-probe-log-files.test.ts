// The Node preload writes one log per thread: a worker thread loads it too, and its records must not
// land in another thread's file, even when they start their logs in the same millisecond.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeScratch } from './stack-support.js';

const scratch = makeScratch();
afterAll(() => scratch.dispose());

describe('Node preload: its log files', () => {
  it('gives each of two workers started in the same millisecond as their main thread a log of its own', () => {
    // Date.now stands still in both threads (a --require before the preload's, in each): one name for both.
    const frozen = scratch.write('frozen-clock.cjs', 'const at = 1_700_000_000_000; Date.now = () => at;\n');
    const program = scratch.write(
      'with-worker.cjs',
      [
        "const { Worker } = require('node:worker_threads');",
        "const { openSync, closeSync } = require('node:fs');",
        "const { join } = require('node:path');",
        "closeSync(openSync(join(process.env.WATCHED, 'main.txt'), 'w'));",
        "for (const name of ['a.txt', 'b.txt']) {",
        "  const worker = new Worker(`require('node:fs').closeSync(require('node:fs').openSync(require('node:path').join(process.env.WATCHED, '${name}'), 'w'))`, { eval: true });",
        "  worker.on('exit', (code) => { if (code !== 0) process.exitCode = code; });",
        '}',
      ].join('\n'),
    );
    const env = scratch.probedEnv({ WATCHED: scratch.watched });
    env.NODE_OPTIONS = `--require ${JSON.stringify(frozen)} ${env.NODE_OPTIONS}`;
    const child = spawnSync(process.execPath, [program], { env, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const logs = readdirSync(scratch.logDir).sort();
    const stem = `node-${child.pid}-1700000000000`;
    expect(logs).toEqual([`${stem}-1.jsonl`, `${stem}-2.jsonl`, `${stem}.jsonl`]);
    const processLines = logs.map((name) =>
      readFileSync(join(scratch.logDir, name), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind":"process"')),
    );
    expect(processLines.map((lines) => lines.length)).toEqual([1, 1, 1]);
  });
});
