// The bundled Node reporter is named by path on Linux and by file:// URL on Windows, where Node's ESM
// loader reads `C:\...` as a URL with scheme `c:`. The Wine suite runs the Windows half for real;
// here Linux node proves that the URL form is one `--test-reporter` accepts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type * as InstallPaths from '../../install-paths.js';
import { commandLineOf } from './command-line.js';
import { NODE_REPORTER_FILE, nodeTestWithReporter } from './node-test.js';
import type { RunnerContext } from './runner.js';

// The probes' place as the built CLI computes it, from dist/host, not from here.
const { PROBES_DIR } = (await import(new URL('../../../dist/host/install-paths.js', import.meta.url).href)) as typeof InstallPaths;
const NODE_REPORTER = PROBES_DIR + NODE_REPORTER_FILE;

function withReporter(command: string[], platform: NodeJS.Platform, nodeMajor = 24): string[] {
  const context = { probesDir: PROBES_DIR, platform, nodeMajor, userSeesTerminal: false } as RunnerContext;
  return nodeTestWithReporter(commandLineOf(command)!, context);
}

describe('node --test with the reporter', () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('names the reporter by path on linux and by file URL on win32', () => {
    const reporterArg = (platform: NodeJS.Platform) => withReporter(['node', '--test', 'x'], platform).find((a) => a.includes('holdwatch-reporter'));
    expect(reporterArg('linux')).toBe(`--test-reporter=${NODE_REPORTER}`);
    expect(reporterArg('win32')).toBe(`--test-reporter=${pathToFileURL(NODE_REPORTER).href}`);
    expect(withReporter(['node.exe', '--test'], 'win32', 20)[1]).toBe('--test-reporter=tap');
  });

  it('the URL form loads the reporter: node --test writes the timeline to HOLDWATCH_EVENTS', () => {
    scratch = mkdtempSync(join(tmpdir(), 'holdwatch-reporter-url-'));
    const suite = join(scratch, 'one.test.mjs');
    const events = join(scratch, 'events.jsonl');
    writeFileSync(suite, "import { test } from 'node:test';\ntest('only', () => {});\n");
    const args = withReporter([process.execPath, '--test', suite], 'win32').slice(1);
    execFileSync(process.execPath, args, { env: { ...process.env, HOLDWATCH_EVENTS: events }, stdio: 'ignore' });
    const types = readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .map((line) => `${JSON.parse(line).type} ${JSON.parse(line).name}`);
    // Named with their file, which lies outside the working directory: by its whole path.
    expect(types).toEqual(['run-start node --test', `test-start ${suite} > only`, `test-end ${suite} > only`, 'run-end node --test']);
  });
});
