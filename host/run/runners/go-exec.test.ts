import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { commandLineOf } from './command-line.js';
import { goExecEnvironment, goLedgerOn, goLedgerWritten, isGoTestBinary, onPath, prepareGoExec, throughExitStop } from './go-exec.js';
import type { RunnerContext } from './runner.js';

const probesDir = join(import.meta.dirname, '../../../probes');
const SCRIPT = join(probesDir, 'go/holdwatch-go-exec');
const linux = { platform: 'linux' as const, probesDir };
const win32 = { platform: 'win32' as const, probesDir };

describe('goExecEnvironment', () => {
  let scratch: string | null = null;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  });

  it("adds holdwatch's -exec to the user's GOFLAGS, and names a cached program by its sources' hash", () => {
    const env = goExecEnvironment({ GOFLAGS: '-mod=vendor' }, '/data', linux);
    expect(env.GOFLAGS).toBe(`-mod=vendor -exec=${SCRIPT}`);
    expect(env.HOLDWATCH_GO_EXEC_BIN).toMatch(/^\/data\/go-exec\/[0-9a-f]{16}\/holdwatch-go-exec$/);
    expect(goExecEnvironment({}, '/data', linux).GOFLAGS).toBe(`-exec=${SCRIPT}`);
  });

  it("leaves Go alone when the user's GOFLAGS already names an -exec", () => {
    expect(goExecEnvironment({ GOFLAGS: '-exec=wine' }, '/data', linux)).toEqual({});
    expect(goExecEnvironment({ GOFLAGS: '-count=1 --exec /usr/bin/env' }, '/data', linux)).toEqual({});
  });

  it("names the strace for the syscall ledger: the first on PATH, the user's own, or none when the user empties it", () => {
    const straceDir = mkdtempSync(join(tmpdir(), 'hw-strace-'));
    writeFileSync(join(straceDir, 'strace'), '#!/bin/sh\n', { mode: 0o755 });
    expect(onPath('strace', ['/nonexistent', straceDir].join(':'))).toBe(join(straceDir, 'strace'));
    expect(goExecEnvironment({ PATH: straceDir }, '/data', linux).HOLDWATCH_STRACE).toBe(join(straceDir, 'strace'));
    expect(goExecEnvironment({ PATH: '/nonexistent' }, '/data', linux)).not.toHaveProperty('HOLDWATCH_STRACE');
    expect(goExecEnvironment({ PATH: straceDir, HOLDWATCH_STRACE: '/opt/strace' }, '/data', linux).HOLDWATCH_STRACE).toBe('/opt/strace');
    expect(goExecEnvironment({ PATH: straceDir, HOLDWATCH_STRACE: '' }, '/data', linux)).not.toHaveProperty('HOLDWATCH_STRACE');
    rmSync(straceDir, { recursive: true });
  });

  it("says the ledger is on only for holdwatch's own -exec with a strace and a log dir, the probes not disabled", () => {
    const log = { HOLDWATCH_PROBE_LOG: '/data/runs/r.probes' };
    const run = (base: NodeJS.ProcessEnv) => ({ ...base, ...log, ...goExecEnvironment(base, '/data', linux) });
    expect(goLedgerOn(run({ HOLDWATCH_STRACE: '/usr/bin/strace' }), probesDir)).toBe(true);
    expect(goLedgerOn(run({ HOLDWATCH_STRACE: '/usr/bin/strace', GOFLAGS: '-mod=mod' }), probesDir)).toBe(true);
    expect(goLedgerOn(run({ HOLDWATCH_STRACE: '' }), probesDir)).toBe(false);
    expect(goLedgerOn(run({ HOLDWATCH_STRACE: '/usr/bin/strace', GOFLAGS: '-exec=wine' }), probesDir)).toBe(false);
    expect(goLedgerOn(run({ HOLDWATCH_STRACE: '/usr/bin/strace', HOLDWATCH_PROBE_DISABLED: '1' }), probesDir)).toBe(false);
    expect(goLedgerOn({ ...goExecEnvironment({ HOLDWATCH_STRACE: '/usr/bin/strace' }, '/data', linux) }, probesDir)).toBe(false);
  });

  it('says a ledger is written once strace has begun one in the log dir, and from then on', () => {
    scratch = mkdtempSync(join(tmpdir(), 'hw-go-ledger-'));
    const env = { HOLDWATCH_PROBE_LOG: scratch, ...goExecEnvironment({ HOLDWATCH_STRACE: '/usr/bin/strace' }, '/data', linux) };
    const written = goLedgerWritten(env, probesDir);
    writeFileSync(join(scratch, '123.jsonl'), '');
    expect(written()).toBe(false);
    writeFileSync(join(scratch, 'strace-123-1796455048214.ledger'), '');
    expect(written()).toBe(true);
    rmSync(join(scratch, 'strace-123-1796455048214.ledger'));
    expect(written()).toBe(true);
    expect(goLedgerWritten({ ...env, HOLDWATCH_STRACE: '' }, probesDir)()).toBe(false);
    expect(goLedgerWritten({ ...env, HOLDWATCH_PROBE_LOG: join(scratch, 'gone') }, probesDir)()).toBe(false);
  });

  it('on Windows names the built program itself (no script runs there), and only once it is built', () => {
    scratch = mkdtempSync(join(tmpdir(), 'hw-go-exec-'));
    expect(goExecEnvironment({}, scratch, win32)).toEqual({});
    // The same cache folder as Linux's (the same sources), the name an executable needs on Windows.
    const bin = `${goExecEnvironment({}, scratch, linux).HOLDWATCH_GO_EXEC_BIN!}.exe`;
    mkdirSync(dirname(bin), { recursive: true });
    writeFileSync(bin, '');
    expect(goExecEnvironment({ GOFLAGS: '-count=1' }, scratch, win32)).toEqual({ GOFLAGS: `-count=1 -exec=${bin}` });
    expect(goExecEnvironment({ GOFLAGS: '-exec=wine' }, scratch, win32)).toEqual({});
    expect(goExecEnvironment({}, '/data', { platform: 'darwin', probesDir })).toEqual({});
  });
});

describe('a Go test binary started directly', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'hw-go-binary-'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  for (const name of ['pkg.test', 'PKG.TEST.EXE', 'run.test.sh']) writeFileSync(join(cwd, name), '');
  const context = { cwd } as RunnerContext;
  const isBinary = (command: string[]) => isGoTestBinary(commandLineOf(command)!, context);
  const through = (command: string[], goflags?: string) => throughExitStop(commandLineOf(command)!, context, goflags === undefined ? {} : { GOFLAGS: goflags });

  it('is one named `*.test` (`.exe`) that is there', () => {
    expect([isBinary(['./pkg.test', '-test.v']), isBinary([join(cwd, 'PKG.TEST.EXE')]), isBinary(['env', 'A=1', './pkg.test'])]).toEqual([true, true, true]);
    expect([isBinary(['./run.test.sh']), isBinary(['./missing.test']), isBinary(['go', 'test'])]).toEqual([false, false, false]);
  });

  it('runs through the program GOFLAGS names, as go test -exec would run it', () => {
    expect(through(['./pkg.test', '-test.v'], '-count=1 -exec=/p/x')).toEqual(['/p/x', './pkg.test', '-test.v']);
    expect(through(['C:\\ci\\pkg.test.exe', '-test.run=TestA'], '-exec=C:\\hw\\x.exe')).toEqual(['C:\\hw\\x.exe', 'C:\\ci\\pkg.test.exe', '-test.run=TestA']);
    expect(through(['./pkg.test'])).toEqual(['./pkg.test']);
  });
});

describe('prepareGoExec', () => {
  it('on Windows builds nothing and names nothing for a command that is not Go', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hw-go-exec-'));
    try {
      // No go on this PATH: a build would be tried (and fail) only for a Go command.
      const env = { PATH: '/nonexistent' };
      expect(await prepareGoExec(env, cache, { platform: 'win32' }, ['node', '--test'])).toEqual({ env: {}, program: null });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
