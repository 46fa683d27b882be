// The Node probe lists its own descriptors at a delete and at test edges; a wrapped descriptor whose
// asynchronous close has been called is still in /proc/self/fd until the thread pool runs the close. In
// a real process whose one pool thread is kept busy, such a descriptor must not read as a new open.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeScratch, runToEnd } from './stack-support.js';

const PROGRAM = `const fs = require('node:fs');
const path = require('node:path');
const [watched, fifo, closer] = process.argv.slice(2);
const run = path.join(watched, 'run');
fs.mkdirSync(run);
const journal = path.join(run, 'events.jsonl');
// The pool's only thread waits in the open of a FIFO nobody writes to yet: a close queued after it waits too.
const busy = () => fs.open(fifo, 'r', (error, fd) => fs.closeSync(fd));
const closed = () => process.stdout.write('closed');
const removeWhileClosing = () => {
  fs.rmSync(run, { recursive: true }); // the probe lists its own descriptors here
  fs.closeSync(fs.openSync(fifo, 'w')); // frees the pool's thread
};
const startClose = {
  'fs.close': (next) => {
    const fd = fs.openSync(journal, 'a');
    busy();
    fs.close(fd, closed);
    next();
  },
  'FileHandle.close': (next) =>
    fs.promises.open(journal, 'a').then((handle) => {
      busy();
      handle.close().then(closed);
      next();
    }),
};
startClose[closer](removeWhileClosing);
`;

describe('node probe: a descriptor whose asynchronous close is under way', () => {
  it.each(['fs.close', 'FileHandle.close'])('is not listed as a new open at a delete, after %s', (closer) => {
    const scratch = makeScratch();
    onTestFinished(() => scratch.dispose());
    const program = scratch.write('closing.cjs', PROGRAM);
    const fifo = join(scratch.root, `busy-${closer}.fifo`);
    execFileSync('mkfifo', [fifo]);
    const env = scratch.probedEnv({ HOLDWATCH_WATCHED: scratch.watched, UV_THREADPOOL_SIZE: '1' });
    const ran = runToEnd(process.execPath, [program, scratch.watched, fifo, closer], env, scratch.root);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('closed');
    const listed = scratch.records().records.filter((r) => r.kind === 'open' && r.api === 'native');
    expect(listed).toEqual([]);
  });
});
