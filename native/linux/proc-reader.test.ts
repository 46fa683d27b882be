// The two /proc readers against real processes: the same links, the same file bytes, and null (never
// a throw) for a process that is gone or a link that is not there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libcProcReader, nodeProcReader, ReadBuffer, type ProcReader } from './proc-reader.js';

let root: string;
let child: ChildProcess;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hw-proc-reader-')));
  // A long command line: more than the reader's first buffer, so it must grow.
  child = spawn('/usr/bin/python3', ['-c', 'import sys; print("ready", flush=True); sys.stdin.read()', 'x'.repeat(20_000)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
});

afterAll(() => {
  child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const libc = (): ProcReader => {
  const reader = libcProcReader();
  if (!reader) throw new Error('koffi or libc did not load here');
  return reader;
};

const fileText = (reader: ProcReader, path: string, into = new ReadBuffer(1024)): string | null => {
  const length = reader.readFile(path, into);
  return length === null ? null : into.bytes.toString('utf8', 0, length);
};

describe('proc readers', () => {
  it('read the same cwd, root and exe links', () => {
    for (const link of ['cwd', 'root', 'exe']) {
      const path = `/proc/${child.pid}/${link}`;
      expect(libc().readLink(path)).toBe(nodeProcReader.readLink(path));
    }
    expect(libc().readLink(`/proc/${child.pid}/cwd`)).toBe(root);
  });

  it('read the same stat, cmdline and maps bytes, growing the buffer for a long file', () => {
    for (const file of ['stat', 'cmdline', 'maps']) {
      const path = `/proc/${child.pid}/${file}`;
      expect(fileText(libc(), path)).toBe(fileText(nodeProcReader, path));
    }
    expect(fileText(libc(), `/proc/${child.pid}/cmdline`)!.length).toBeGreaterThan(20_000);
  });

  it('a gone process and a kernel thread without an exe are null from both, not an error', () => {
    const gonePid = 2 ** 22 + 1; // above pid_max's ceiling: never a live pid
    for (const reader of [nodeProcReader, libc()]) {
      expect(reader.readLink(`/proc/${gonePid}/cwd`)).toBeNull();
      expect(fileText(reader, `/proc/${gonePid}/maps`)).toBeNull();
      expect(reader.readLink('/proc/2/exe')).toBeNull(); // kthreadd
    }
  });
});
