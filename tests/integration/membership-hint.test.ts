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
import { readStat } from '../../native/linux/proc-stat.js';

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

/** The pid a shell wrote into `file` (`echo $! > file`), once it is there. */
async function pidWrittenTo(file: string, what: string): Promise<number> {
  let pid = 0;
  await until(() => {
    try {
      pid = Number(readFileSync(file, 'utf8'));
    } catch {
      return false; // not written yet
    }
    return pid > 0;
  }, what);
  return pid;
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
      const childPid = await pidWrittenTo(forked, 'the subshell');
      const fresh = await membership.refresh();
      const child = fresh.find((m) => m.pid === childPid);
      expect(child).toBeDefined();
      expect(child!.testHint).toBeUndefined();
      const firstSeenAs = child!.ancestry[0]!.commandLine;

      writeFileSync(gate, '');
      await until(async () => (await source.processInfo(childPid))?.commandLine.includes('export') === false, 'the exec');
      await membership.rehint(childPid, child!.startedAtMs);
      expect(membership.memberOf(childPid, child!.startedAtMs)!.testHint).toEqual({ runner: 'bats', number: 3 });
      // Met before its exec, its own entry showed its parent's command line; read again, it is what it became.
      expect(firstSeenAs).toContain('export');
      expect(membership.memberOf(childPid, child!.startedAtMs)!.ancestry[0]!.commandLine).toMatch(/^bash -c .*sleep 30; :/);

      // Its own child's ancestry names it by what it exec-ed, not by what it was when first met. The
      // sleep itself may be met before its own exec (then it reads as bash): once seen holding
      // something (rehint) it reads as what it became.
      let sleep: { pid: number; startedAtMs: number } | undefined;
      await until(async () => {
        sleep = (await source.listProcesses({ fresh: true })).find((p) => p.name === 'sleep' && p.ppid === childPid);
        return sleep !== undefined;
      }, 'the sleep');
      await membership.refresh();
      await membership.rehint(sleep!.pid, sleep!.startedAtMs);
      const sleeper = membership.memberOf(sleep!.pid, sleep!.startedAtMs)!;
      expect(sleeper.name).toBe('sleep');
      const [own, parent, shellLine] = sleeper.ancestry.map((a) => a.commandLine);
      expect(own).toBe('sleep 30');
      expect(parent).toMatch(/^bash -c .*sleep 30; :/);
      expect(parent).not.toContain('export'); // the shell's command line, as the child showed before its exec
      expect(shellLine).toContain('export BATS_SUITE_TEST_NUMBER=3');
    } finally {
      process.kill(-shell.pid!, 'SIGKILL'); // the group: the exec-ed child too
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a holder whose process exited before membership listed it', () => {
  // Seen in a bats suite whose writers fork a 5 ms `sleep` per file: the scan saw the sleep holding the
  // writer's inherited log, the refresh that followed no longer listed it, and it read as outside-run.
  it('belongs through the parent the scan read with it, when that parent is a member started before it', async () => {
    const pidFile = join(dir, 'sleep-pid');
    const shell = spawn('bash', ['-c', `sleep 30 & echo $! > "${pidFile}"; wait; sleep 30`], { stdio: 'ignore', detached: true });
    try {
      const source = await openProcessSource();
      const membership = new RunMembership(source, 'run-orphan', shell.pid!);
      const sleepPid = await pidWrittenTo(pidFile, 'the sleep');
      const startedAtMs = readStat(sleepPid).startedAtMs;
      process.kill(sleepPid, 'SIGKILL'); // it exits before any refresh lists it (the shell reaps it)
      await until(async () => (await source.processInfo(sleepPid)) === null, 'the sleep to exit');
      const holder = { pid: sleepPid, processStartedAtMs: startedAtMs, ppid: shell.pid!, processName: 'sleep', commandLine: 'sleep 30' };
      await membership.refresh(); // lists the shell, no longer the sleep
      expect(membership.memberOf(sleepPid, startedAtMs)).toBeUndefined();
      const adopted = membership.adoptOrphan(holder);
      expect(adopted?.ancestry.map((a) => a.pid)).toEqual([sleepPid, shell.pid]);
      expect(membership.memberOf(sleepPid, startedAtMs)).toBe(adopted);
      // A parent pid whose member started after the child is a reused pid: not its parent.
      expect(membership.adoptOrphan({ ...holder, pid: sleepPid + 100_000, processStartedAtMs: 1 })).toBeUndefined();
      // A parent that is no member: a stranger's child stays a stranger.
      expect(membership.adoptOrphan({ ...holder, pid: sleepPid + 100_001, ppid: 1 })).toBeUndefined();
    } finally {
      process.kill(-shell.pid!, 'SIGKILL');
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a child exiting as it is listed, forked by a member whose chain broke', () => {
  // The other half of the bats writers' race (seen under a full suite's load): a writer outlives its
  // test, so its chain to the command is broken (init adopted it), and the 5 ms `sleep` it forks is
  // listed while it exits. An exiting process's environment cannot be read, so the run tag could not
  // place it, and it was judged a stranger for good, which adoptOrphan then respects: outside-run.
  // A zombie stands for the exiting child here: listed, its environ gone (ESRCH).
  it('belongs with its parent member, with the parent ancestry under its own', async () => {
    const [writerPid, zombiePid, gate, forkGate] = ['writer-pid', 'zombie-pid', 'writer-gate', 'fork-gate'].map((f) => join(dir, f)) as [
      string,
      string,
      string,
      string,
    ];
    const writer = `import os, sys, time
while not os.path.exists(sys.argv[1]): time.sleep(0.01)
pid = os.fork()
if pid == 0: os._exit(0)
open(sys.argv[2], "w").write(str(pid))
time.sleep(30)`;
    const python = process.env.HOLDWATCH_TEST_PYTHON ?? '/usr/bin/python3';
    // The command, a shell that starts the writer through a second shell; that shell leaves at the gate.
    const inner = `${python} -c '${writer}' "${forkGate}" "${zombiePid}" & echo $! > "${writerPid}"; while [ ! -e "${gate}" ]; do sleep 0.01; done`;
    const shell = spawn('bash', ['-c', `bash -c '${inner.replace(/'/g, `'\\''`)}'; sleep 30`], { stdio: 'ignore', detached: true });
    try {
      const source = await openProcessSource();
      const membership = new RunMembership(source, 'run-zombie', shell.pid!);
      const wPid = await pidWrittenTo(writerPid, 'the writer');
      await until(async () => (await source.processInfo(wPid))?.commandLine.includes('time.sleep') === true, "the writer's exec");
      // Identities as the process source dates them (its boot-time reading, not this module's).
      const writerMember = (await membership.refresh()).find((m) => m.pid === wPid);
      expect(writerMember?.byTagOnly).toBe(false); // a member through its chain
      writeFileSync(gate, '');
      await until(async () => ![shell.pid, undefined].includes((await source.processInfo(wPid))?.ppid), 'init to adopt the writer');
      writeFileSync(forkGate, '');
      const zPid = await pidWrittenTo(zombiePid, 'the forked child');
      // What an exiting child shows: no environment to read (ESRCH), where its parent's has PATH. The
      // writer records the pid as it forks, so the child may not have exited yet: wait for its exit.
      await until(async () => (await source.readEnvironmentVariable(zPid, 'PATH')) === null, 'the forked child to exit');
      expect((await source.listProcesses()).some((p) => p.pid === zPid)).toBe(true); // still listed: a zombie
      expect(await source.readEnvironmentVariable(wPid, 'PATH')).not.toBeNull();
      await membership.refresh();
      const zombie = (await source.listProcesses()).find((p) => p.pid === zPid)!;
      const child = membership.memberOf(zPid, zombie.startedAtMs);
      expect(child?.ancestry.map((a) => a.pid)).toEqual([zPid, ...writerMember!.ancestry.map((a) => a.pid)]);
    } finally {
      process.kill(-shell.pid!, 'SIGKILL');
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a detached writer whose parent left before membership listed it', () => {
  // examples/bats-detached under a full suite's load: the indexer's parent (a subshell of the test)
  // had exited by the first refresh that listed it, so its chain read "bash ← PID 1", and the bats
  // levels above it were lost. Its environment names its test (BATS_SUITE_TEST_NUMBER, exported in
  // bats-exec-test): the chain resumes at that test's process, marked as a gap.
  it('resumes its chain at the bats-exec-test process its test number names, marking the gap', async () => {
    const [gate, detachedPid] = ['gap-gate', 'gap-detached'].map((f) => join(dir, f)) as [string, string];
    // The subshell forks the writer and leaves at once; setsid puts the writer in a session of its own
    // (the kill of the command's group spares it, so it is killed by pid below).
    const script = `export HOLDWATCH_RUN=run-gap BATS_SUITE_TEST_NUMBER=4
      while [ ! -e "${gate}" ]; do sleep 0.01; done
      ( setsid bash -c 'echo $$ > "$1"; sleep 30; :' _ "${detachedPid}" </dev/null >/dev/null 2>&1 & )
      sleep 30`;
    // Named as bats names its test process: `bats-exec-test <file> <test> <number in suite> <in file> <try>`.
    const shell = spawn('bash', ['-c', script, 'bats-exec-test', '/s/suite.bats', 'test_indexer', '4', '1', '1'], { stdio: 'ignore', detached: true });
    let writer = 0;
    try {
      const source = await openProcessSource();
      const membership = new RunMembership(source, 'run-gap', shell.pid!);
      await until(async () => (await source.processInfo(shell.pid!))?.commandLine.includes('test_indexer') === true, 'the shell');
      await membership.refresh();
      writeFileSync(gate, '');
      writer = await pidWrittenTo(detachedPid, 'the writer');
      // The subshell has gone: the writer's parent is no longer the shell's child.
      await until(async () => {
        const ppid = (await source.processInfo(writer))?.ppid;
        return ppid !== undefined && ppid !== shell.pid && (await source.processInfo(ppid))?.ppid !== shell.pid;
      }, 'the subshell to leave');
      await membership.refresh();
      const started = (await source.listProcesses()).find((p) => p.pid === writer)!.startedAtMs;
      const member = membership.memberOf(writer, started);
      expect(member?.byTagOnly).toBe(true);
      expect(member?.testHint).toEqual({ runner: 'bats', number: 4 });
      expect(member?.ancestry.map((a) => [a.pid, a.gapBelow ?? false])).toEqual([
        [writer, false],
        [shell.pid, true],
      ]);
      expect(member?.ancestry[1]?.commandLine).toMatch(/bats-exec-test \/s\/suite\.bats test_indexer 4 1 1$/);
    } finally {
      process.kill(-shell.pid!, 'SIGKILL');
      if (writer > 0) process.kill(writer, 'SIGKILL');
    }
  });
});
