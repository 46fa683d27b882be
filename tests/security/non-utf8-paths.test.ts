// A file whose name is not UTF-8 (reliability-2.md F11): a Linux name is any bytes but `/` and NUL, and
// JSON holds text, so `path` shows U+FFFD where the bytes were and named no file on disk. The JSON of
// scan and watch now carries the bytes too (pathBytesBase64), and they name the very file held.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

/** A python3 holding `dir`/NAME open (made from bytes: an argv string cannot carry them); resolves when it holds it. */
function holdNonUtf8File(dir: string): Promise<ChildProcess> {
  const code = `import os, sys
f = open(os.path.join(os.fsencode(sys.argv[1]), bytes.fromhex(sys.argv[2])), "ab")
print("ready", flush=True)
sys.stdin.read()`;
  const child = spawn('python3', ['-c', code, dir, NAME.toString('hex')], { stdio: ['pipe', 'pipe', 'inherit'] });
  holders.push(child);
  return new Promise((resolve, reject) => {
    child.on('exit', (exitCode) => reject(new Error(`python3 exited early (${exitCode})`)));
    child.stdout.on('data', (d: Buffer) => d.includes('ready') && resolve(child));
  });
}

interface JsonHolder {
  pid: number;
  path: string;
  pathBytesBase64?: string;
}

const expectNamesTheFile = (holder: JsonHolder | undefined, dir: string) => {
  expect(holder?.path).toBe(join(dir, 'bad-\uFFFD\uFFFD.log'));
  expect(Buffer.from(holder!.pathBytesBase64!, 'base64')).toEqual(Buffer.concat([Buffer.from(dir + '/'), NAME]));
  // The bytes are the name on disk, which the display path is not.
  expect(readdirSync(Buffer.from(dir), { encoding: 'buffer' })).toContainEqual(NAME);
};

describe.skipIf(process.platform !== 'linux')('a held file whose name is not UTF-8', () => {
  it('scan --json keeps its bytes beside the display path', async () => {
    const dir = join(scratch, 'scan');
    mkdirSync(dir);
    const holder = await holdNonUtf8File(dir);
    const { code, stdout } = await runCli(['scan', dir, '--json']);
    expect(code).toBe(0);
    const holders = (JSON.parse(stdout) as { holders: JsonHolder[] }).holders.filter((h) => h.pid === holder.pid);
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
});
