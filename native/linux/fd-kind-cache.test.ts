// The kind cache against a real process whose fds change between walks: a remembered kind is only
// reused while the fd still points at the same path.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FdKindCache } from './fd-kind-cache.js';
import { holdingsOf, walkPids, type MatchDir } from './fd-walk.js';

// Opens a directory and a file, prints both fd numbers, then on "swap" points the file's fd at the
// directory (dup2) and on "close" closes it, answering "ok" each time.
const HOLDER = `
import os, sys
d, f = os.open(sys.argv[1], os.O_RDONLY), os.open(sys.argv[2], os.O_RDONLY)
print(d, f, flush=True)
for line in sys.stdin:
    if line.strip() == 'swap': os.dup2(d, f)
    if line.strip() == 'close': os.close(f)
    print('ok', flush=True)
`;

describe('FdKindCache with walkPids', () => {
  let root: string;
  let child: ChildProcess | undefined;
  let lines: AsyncIterableIterator<string>;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'holdwatch-kinds-')));
  });

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  async function send(command: string): Promise<string> {
    child!.stdin!.write(command + '\n');
    return (await lines.next()).value as string;
  }

  it('stats an fd again once it points somewhere else, and forgets closed fds', async () => {
    const watched = join(root, 'watched');
    mkdirSync(join(watched, 'sub'), { recursive: true });
    writeFileSync(join(watched, 'a.txt'), 'a');
    child = spawn('python3', ['-c', HOLDER, join(watched, 'sub'), join(watched, 'a.txt')], { stdio: ['pipe', 'pipe', 'inherit'] });
    lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const [dirFd, fileFd] = ((await lines.next()).value as string).split(' ');
    const pid = child.pid!;
    const dirs: MatchDir[] = [{ matchPrefix: watched, display: watched }];
    const kinds = new FdKindCache();
    const kindOf = (fd: string) => holdingsOf(walkPids([pid], dirs, { kinds })).find((h) => h.handle === `fd ${fd}`)?.kind;

    expect([kindOf(dirFd!), kindOf(fileFd!)]).toEqual(['dir', 'file']);
    expect(kinds.of(pid)?.get(fileFd!)).toEqual({ target: join(watched, 'a.txt'), dir: false, flags: expect.any(Number) });

    expect(await send('swap')).toBe('ok');
    expect(kindOf(fileFd!)).toBe('dir');
    expect(kinds.of(pid)?.get(fileFd!)).toEqual({ target: join(watched, 'sub'), dir: true, flags: expect.any(Number) });

    expect(await send('close')).toBe('ok');
    walkPids([pid], dirs, { kinds });
    expect(kinds.of(pid)?.has(fileFd!)).toBe(false);
    expect(kinds.of(pid)?.get(dirFd!)?.dir).toBe(true);
  });

  it('forgets processes a full walk no longer covers', () => {
    const kinds = new FdKindCache();
    kinds.remember(1, new Map([['3', { target: '/x', dir: false }]]));
    kinds.remember(2, new Map([['4', { target: '/y', dir: true }]]));
    kinds.retainOnly([2]);
    expect(kinds.of(1)).toBeUndefined();
    expect(kinds.of(2)?.get('4')).toEqual({ target: '/y', dir: true });
  });
});
