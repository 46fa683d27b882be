// A runner's test hint is exported inside the runner's shell (bats sets BATS_SUITE_TEST_NUMBER in
// bats-exec-test), so /proc/<pid>/environ shows it only after an exec. A child first met between fork
// and exec has no hint yet, and its command line is its parent's; both are read again later. Seen in a full-suite run:
// the bats example's detached writer came out with spawnedDuring null under load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunMembership } from '../../core/run/membership.js';
import { openProcessSource } from '../../native/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-hint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Polls until `check` holds; the condition is the OS's, the limit only keeps a failure from hanging. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(process.platform !== 'linux')('a test hint exported after the parent was exec-ed', () => {
  it('is missing while the child has not exec-ed, and read again once it holds something', async () => {
    const gate = join(dir, 'gate');
    const forked = join(dir, 'forked');
    // The shell exports the hint itself (as bats does), forks a subshell that waits for the gate
    // with builtins only, then execs a new bash, whose environ carries the hint.
    const script = `export BATS_SUITE_TEST_NUMBER=3
      ( echo $BASHPID > "${forked}"; while [ ! -e "${gate}" ]; do :; done; exec bash -c 'sleep 30; :' ) & wait`;
    const shell = spawn('bash', ['-c', script], { stdio: 'ignore', detached: true, env: { PATH: process.env.PATH! } });
    try {
      const source = await openProcessSource();
      const membership = new RunMembership(source, 'run-hint', shell.pid!);
      let childPid = 0;
      await until(() => {
        try {
          childPid = Number(readFileSync(forked, 'utf8'));
        } catch {
          return false;
        }
        return childPid > 0;
      }, 'the subshell');
      const fresh = await membership.refresh();
      const child = fresh.find((m) => m.pid === childPid);
      expect(child).toBeDefined();
      expect(child!.testHint).toBeUndefined();

      writeFileSync(gate, '');
      await until(async () => (await source.processInfo(childPid))?.commandLine.includes('export') === false, 'the exec');
      await membership.rehint(childPid, child!.startedAtMs);
      expect(membership.memberOf(childPid, child!.startedAtMs)!.testHint).toEqual({ runner: 'bats', number: 3 });

      // Its own child's ancestry names it by what it exec-ed, not by what it was when first met.
      let sleeper: { ancestry: { commandLine: string }[] } | undefined;
      await until(async () => {
        sleeper = (await membership.refresh()).find((m) => m.name === 'sleep');
        return sleeper !== undefined;
      }, 'the sleep');
      const [own, parent, shellLine] = sleeper!.ancestry.map((a) => a.commandLine);
      expect(own).toBe('sleep 30');
      expect(parent).toMatch(/^bash -c .*sleep 30; :/);
      expect(parent).not.toContain('export'); // the shell's command line, as the child showed before its exec
      expect(shellLine).toContain('export BATS_SUITE_TEST_NUMBER=3');
    } finally {
      process.kill(-shell.pid!, 'SIGKILL'); // the group: the exec-ed child too
    }
  });
});
