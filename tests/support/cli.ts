// Runs the built CLI as a real child process, as users and scripts do.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = REPO_ROOT + 'bin/holdwatch.js';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
  stderrBytes: Buffer;
}

export function runCli(args: string[], options: { cwd?: string; asUser?: string; env?: Record<string, string>; input?: Buffer } = {}): Promise<CliResult> {
  const [command, argv] = options.asUser
    ? [
        'setpriv',
        [`--reuid=${options.asUser}`, `--regid=${options.asUser === 'nobody' ? 'nogroup' : options.asUser}`, '--clear-groups', process.execPath, CLI, ...args],
      ]
    : [process.execPath, [CLI, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: options.cwd ?? REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdoutBytes = Buffer.concat(out);
      const stderrBytes = Buffer.concat(err);
      resolve({ code, signal, stdout: stdoutBytes.toString(), stderr: stderrBytes.toString(), stdoutBytes, stderrBytes });
    });
  });
}

/** A long-running CLI (watch) whose stdout and stderr lines can be awaited. */
export function startCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  const stdout = lineFeed(child.stdout);
  const stderr = lineFeed(child.stderr);
  return { child, lines: stdout.lines, waitForLine: stdout.waitForLine, waitForStderrLine: stderr.waitForLine };
}

type LineTest = (line: string) => boolean;

function lineFeed(stream: NodeJS.ReadableStream) {
  const lines: string[] = [];
  const waiters: { test: LineTest; resolve: (l: string) => void }[] = [];
  let buffered = '';
  stream.on('data', (d: Buffer) => {
    buffered += d;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (!w.test(line)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const waitForLine = (test: LineTest, timeoutMs = 15_000): Promise<string> => {
    const seen = lines.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching line in ${timeoutMs} ms; got:\n${lines.join('\n')}`)), timeoutMs);
      waiters.push({
        test,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });
  };
  return { lines, waitForLine };
}
