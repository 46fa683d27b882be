// The bundled Node reporter is named by path on Linux and by file:// URL on Windows, where Node's ESM
// loader reads `C:\...` as a URL with scheme `c:`. The Wine suite runs the Windows half for real;
// here Linux node proves that the URL form is one `--test-reporter` accepts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type * as Probes from './runner-probes.js';

// The built module, as the CLI runs it: the probes' path is computed from dist/host, not from here.
const { NODE_REPORTER, prepareCommand } = (await import(new URL('../../dist/host/run/runner-probes.js', import.meta.url).href)) as typeof Probes;

describe('prepareCommand for node --test', () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('names the reporter by path on linux and by file URL on win32', () => {
    const reporterArg = (platform: NodeJS.Platform) =>
      prepareCommand(['node', '--test', 'x'], false, platform).command.find((a) => a.includes('holdwatch-reporter'));
    expect(reporterArg('linux')).toBe(`--test-reporter=${NODE_REPORTER}`);
    expect(reporterArg('win32')).toBe(`--test-reporter=${pathToFileURL(NODE_REPORTER).href}`);
    expect(prepareCommand(['node.exe', '--test'], false, 'win32', 20).command[1]).toBe('--test-reporter=tap');
  });

  it('the URL form loads the reporter: node --test writes the timeline to HOLDWATCH_EVENTS', () => {
    scratch = mkdtempSync(join(tmpdir(), 'holdwatch-reporter-url-'));
    const suite = join(scratch, 'one.test.mjs');
    const events = join(scratch, 'events.jsonl');
    writeFileSync(suite, "import { test } from 'node:test';\ntest('only', () => {});\n");
    const args = prepareCommand([process.execPath, '--test', suite], false, 'win32').command.slice(1);
    execFileSync(process.execPath, args, { env: { ...process.env, HOLDWATCH_EVENTS: events }, stdio: 'ignore' });
    const types = readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .map((line) => `${JSON.parse(line).type} ${JSON.parse(line).name}`);
    expect(types).toEqual(['run-start node --test', 'test-start only', 'test-end only', 'run-end node --test']);
  });
});

describe('prepareCommand for mocha and jest', () => {
  it('leaves the command as it is, and says the probe reports the tests (not stdout, even as TAP)', () => {
    for (const command of [['mocha', '--reporter', 'tap'], ['npx', 'jest'], ['node', 'node_modules/.bin/_mocha'], ['node_modules\\.bin\\jest.cmd']]) {
      expect(prepareCommand(command, false, 'linux')).toEqual({ command, probeReportsTests: true });
    }
    expect(prepareCommand(['npm', 'test'], false, 'linux')).toEqual({ command: ['npm', 'test'], probeReportsTests: false });
  });
});
