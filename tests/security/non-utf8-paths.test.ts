// A file whose name is not UTF-8 (reliability-2.md F11): a Linux name is any bytes but `/` and NUL, and
// JSON holds text, so `path` shows U+FFFD where the bytes were and named no file on disk. The JSON of
// scan and watch now carries the bytes too (pathBytesBase64), and they name the very file held: for an
// open file, a current directory and a mapped file alike, and for a run's leftovers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';

const NAME = Buffer.from([0x62, 0x61, 0x64, 0x2d, 0xff, 0xfe, 0x2e, 0x6c, 0x6f, 0x67]); // "bad-" FF FE ".log"

let scratch: string;
const holders: ChildProcess[] = [];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-non-utf8-'));
});

afterAll(() => {
  for (const child of holders) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** A python3 running `code` with `dir` and NAME in hex as its arguments (an argv string cannot carry the bytes); resolves once it prints "ready". */
function startPython(code: string, dir: string): Promise<ChildProcess> {
  const child = spawn('python3', ['-c', code, dir, NAME.toString('hex')], { stdio: ['pipe', 'pipe', 'inherit'] });
  holders.push(child);
  return new Promise((resolve, reject) => {
    child.on('exit', (exitCode) => reject(new Error(`python3 exited early (${exitCode})`)));
    child.stdout.on('data', (d: Buffer) => d.includes('ready') && resolve(child));
  });
}

/** A python3 holding `dir`/NAME open; resolves when it holds it. */
function holdNonUtf8File(dir: string): Promise<ChildProcess> {
  const code = `import os, sys
f = open(os.path.join(os.fsencode(sys.argv[1]), bytes.fromhex(sys.argv[2])), "ab")
print("ready", flush=True)
sys.stdin.read()`;
  return startPython(code, dir);
}

interface JsonHolder {
  pid: number;
  kind?: string;
  path: string;
  pathBytesBase64?: string;
}

/**
 * A python3 whose current directory is `dir`/NAME and that maps `dir`/NAME/NAME; resolves when it is so.
 */
function inNonUtf8Dir(dir: string): Promise<ChildProcess> {
  const code = `import mmap, os, sys
name = bytes.fromhex(sys.argv[2])
os.mkdir(os.path.join(os.fsencode(sys.argv[1]), name))
os.chdir(os.path.join(os.fsencode(sys.argv[1]), name))
with open(name, "wb+") as f:
    f.write(b"x" * 4096)
    f.flush()
    view = mmap.mmap(f.fileno(), 4096)
print("ready", flush=True)
sys.stdin.read()`;
  return startPython(code, dir);
}

const bytesOf = (row: { pathBytesBase64?: string }) => (row.pathBytesBase64 === undefined ? undefined : Buffer.from(row.pathBytesBase64, 'base64'));

const expectNamesTheFile = (holder: JsonHolder | undefined, dir: string) => {
  expect(holder?.path).toBe(join(dir, 'bad-\uFFFD\uFFFD.log'));
  expect(Buffer.from(holder!.pathBytesBase64!, 'base64')).toEqual(Buffer.concat([Buffer.from(dir + '/'), NAME]));
  // The bytes are the name on disk, which the display path is not.
  expect(readdirSync(Buffer.from(dir), { encoding: 'buffer' })).toContainEqual(NAME);
};

/** `scan <dir> --json`'s rows of the process `start` makes in `dir` (made first). */
async function scanRowsOf(dir: string, start: (dir: string) => Promise<ChildProcess>): Promise<JsonHolder[]> {
  mkdirSync(dir);
  const holder = await start(dir);
  const { code, stdout } = await runCli(['scan', dir, '--json']);
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { holders: JsonHolder[] }).holders.filter((h) => h.pid === holder.pid);
}

describe.skipIf(process.platform !== 'linux')('a held file whose name is not UTF-8', () => {
  it('scan --json keeps its bytes beside the display path', async () => {
    const dir = join(scratch, 'scan');
    const holders = await scanRowsOf(dir, holdNonUtf8File);
    expect(holders).toHaveLength(1);
    expectNamesTheFile(holders[0], dir);
  });

  it('watch --json keeps them too, for a holder that came while it watched', async () => {
    const dir = join(scratch, 'watch');
    mkdirSync(dir);
    const watch = startCli(['watch', dir, '--json', '--interval', '100']);
    try {
      await watch.waitForStderrLine((line) => line.includes('Ctrl-C to stop'));
      const holder = await holdNonUtf8File(dir);
      const line = await watch.waitForLine((l) => l.includes(`"pid":${holder.pid},`));
      expectNamesTheFile((JSON.parse(line) as { holder: JsonHolder }).holder, dir);
    } finally {
      watch.child.kill('SIGKILL');
    }
  });

  it('scan --json keeps the bytes of a current directory and a mapped file', async () => {
    const dir = join(scratch, 'cwd-mmap');
    const rows = await scanRowsOf(dir, inNonUtf8Dir);
    const inDir = Buffer.concat([Buffer.from(dir + '/'), NAME]);
    // Python's mmap keeps a dup of the file's fd: a file row beside the mmap row.
    expect(rows.map((r) => r.kind).sort()).toEqual(['cwd', 'file', 'mmap']);
    expect(bytesOf(rows.find((r) => r.kind === 'cwd')!)).toEqual(inDir);
    expect(bytesOf(rows.find((r) => r.kind === 'mmap')!)).toEqual(Buffer.concat([inDir, Buffer.from('/'), NAME]));
  });

  it('run --json keeps the bytes of a leftover, and finds one inside a dir so named', async () => {
    const dir = join(scratch, 'leftover');
    const old = Buffer.concat([Buffer.from(dir + '/'), NAME]);
    mkdirSync(old, { recursive: true });
    const json = join(scratch, 'leftover.json');
    // New: NAME inside the dir NAME that was there before, and "sub".
    const make = `import os, sys
name = bytes.fromhex(sys.argv[2])
open(os.path.join(os.fsencode(sys.argv[1]), name, name), "w").close()
os.mkdir(os.path.join(os.fsencode(sys.argv[1]), b"sub"))`;
    const { code } = await runCli(['run', '--watch', dir, '--json', json, '--', 'python3', '-c', make, dir, NAME.toString('hex')], {
      env: { HOLDWATCH_DATA_DIR: join(scratch, 'data') },
    });
    expect(code).toBe(0);
    const leftovers = (JSON.parse(readFileSync(json, 'utf8')) as { leftovers: JsonHolder[] }).leftovers;
    const named = leftovers.find((l) => l.path === join(dir, 'bad-\uFFFD\uFFFD.log', 'bad-\uFFFD\uFFFD.log'));
    expect(named && bytesOf(named)).toEqual(Buffer.concat([old, Buffer.from('/'), NAME]));
    expect(leftovers.find((l) => l.path === join(dir, 'sub'))?.pathBytesBase64).toBeUndefined();
  });
});
