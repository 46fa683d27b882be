// Killing `holdwatch stack` mid-dump under Wine. MiniDumpWriteDump suspends the target's threads
// while it writes; a dumper killed mid-call never resumes them. The dump is written by a detached
// child that the kill does not reach: it finishes the dump (a whole minidump appears after the kill)
// and the target keeps running (it answers its release file and exits). Registered from wine.test.ts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMinidump } from './minidump-file.js';
import { host, REPO, useWindowsScratch, waitFor, winPath } from './wine-harness.js';

/** The dump's thread ids once it is a whole minidump, else undefined (not yet there, or truncated). */
function wholeDumpThreads(path: string): number[] | undefined {
  try {
    const dump = readMinidump(readFileSync(path));
    return dump.signature === 'MDMP' && dump.threadIds.length > 0 ? dump.threadIds : undefined;
  } catch {
    return undefined; // a header or directory that points past the bytes written so far
  }
}

export function describeStackKillUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`holdwatch stack killed mid-dump ${host.where}`, () => {
    const suite = useWindowsScratch('stack-kill');

    it('a kill of holdwatch stack once the dump file exists: the dump is still finished and the target still runs', async () => {
      const { procs, scratch } = suite;
      const pid = await procs.startHolder('target', []);
      const dumps = join(scratch, 'data', 'dumps');
      const stack = procs.start('stack', [
        winPath(join(REPO, 'tests', 'wine', 'fixtures', 'stack-cli.mjs')),
        winPath(join(REPO, 'dist')),
        winPath(join(scratch, 'data')),
        'stack',
        String(pid),
        '--json',
      ]);
      // The dump file is created right before the symbol session and the MiniDumpWriteDump call.
      let dumpFile: string | undefined;
      while (dumpFile === undefined && stack.child.exitCode === null) {
        dumpFile = existsSync(dumps) ? readdirSync(dumps).find((f) => f.endsWith('.dmp')) : undefined;
        if (dumpFile === undefined) await new Promise((r) => setTimeout(r, 10));
      }
      expect(dumpFile, `holdwatch stack ended before its dump began: ${readFileSync(stack.logs.err, 'utf8')}`).toBeDefined();
      stack.child.kill('SIGKILL');

      const path = join(dumps, dumpFile!);
      await waitFor(() => wholeDumpThreads(path) !== undefined, stack.logs.err);
      expect(wholeDumpThreads(path)!.length).toBeGreaterThan(1); // node.exe runs a main thread and a libuv pool
      // Suspended threads would never see the release file: the target exits only if it runs.
      writeFileSync(join(scratch, 'release'), 'go');
      await waitFor(() => procs.exits.some((e) => e.startsWith('target: code 0')), stack.logs.err);
    }, 180_000);
  });
}
