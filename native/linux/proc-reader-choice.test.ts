// How a thread's walks read /proc: its first (a one-shot scan's only walk) with libc only when the
// processes hold enough fds for koffi's load to pay, later ones (a poller's) with libc always.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const HOLDER = `
import os, resource, sys
count = int(sys.argv[1])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 100), hard))
keep = [os.open("/dev/null", os.O_RDONLY) for _ in range(count)]
print("ready", flush=True)
sys.stdin.read()
`;

let child: ChildProcess;

beforeAll(async () => {
  child = spawn('/usr/bin/python3', ['-c', HOLDER, '7000'], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
});

afterAll(() => {
  child.kill('SIGKILL');
});

/** procReaderForWalk as a thread that has not walked yet has it. */
async function freshChoice() {
  vi.resetModules();
  return (await import('./proc-reader.js')).procReaderForWalk;
}

describe('procReaderForWalk', () => {
  it('reads a first walk over 7,000 fds with libc, statting as it reads; a later walk with libc, leaving stats to the kind cache', async () => {
    const procReaderForWalk = await freshChoice();
    expect(procReaderForWalk([process.pid, child.pid!])).toMatchObject({ reader: { name: 'libc' }, withFacts: true });
    expect(procReaderForWalk([process.pid])).toMatchObject({ reader: { name: 'libc' }, withFacts: false });
  });

  it("reads a first walk over a few fds with Node's fs: koffi's load would cost more than it saves", async () => {
    const procReaderForWalk = await freshChoice();
    expect(procReaderForWalk([process.pid])).toMatchObject({ reader: { name: 'node' }, withFacts: false });
  });
});
