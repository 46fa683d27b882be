import { describe, expect, it } from 'vitest';
import type { ProbeRecord } from '../../contract/probe-log.js';
import { findProbeLeaks, indexProbeRecords, matchOpenStack, matchSpawnStack } from './index.js';
import { ledgerRecords } from './syscall-ledger.js';
import { firstStringArg, parseStraceLines } from './strace-lines.js';

// Lines as `strace -f -ttt -y -qq` wrote them for a Go test binary (go 1.19), pids and times kept.
const T = (s: string) => s.trim().replace(/^ +/gm, '');
const SEQUENTIAL = T(`
  8468  1796415124.773088 execve("./leak.test", ["./leak.test", "-test.v"], 0x7ffd5288c8f0 /* 36 vars */) = 0
  8468  1796415124.773966 clone(child_stack=0xc00004e000, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS, tls=0xc00003e090) = 8471
  8468  1796415124.775480 write(1<pipe:[7]>, "=== RUN   TestFirst\\n", 20) = 20
  8468  1796415124.775709 openat(AT_FDCWD</src>, "/w/first.txt", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3</w/first.txt>
  8468  1796415124.777129 close(3</w/first.txt>) = 0
  8468  1796415124.777212 write(1<pipe:[7]>, "--- PASS: TestFirst (0.00s)\\n", 28) = 28
  8468  1796415124.777301 write(1<pipe:[7]>, "=== RUN   TestSecond\\n", 21) = 21
  8468  1796415124.777397 openat(AT_FDCWD</src>, "/w/second.txt", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3</w/second.txt>
  8468  1796415124.778726 write(1<pipe:[7]>, "--- PASS: TestSecond (0.00s)\\n", 29) = 29
  8468  1796415124.779056 write(1<pipe:[7]>, "=== RUN   TestThird\\n", 20) = 20
  8468  1796415124.779139 openat(AT_FDCWD</src>, "/w/third.txt", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0666 <unfinished ...>
  8471  1796415124.779200 openat(AT_FDCWD</src>, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 8</etc/hosts>
  8468  1796415124.779341 <... openat resumed>) = 7</w/third.txt>
  8471  1796415124.780556 close(7</w/third.txt>) = 0
  8471  1796415124.780649 write(1<pipe:[7]>, "--- PASS: TestThird (0.00s)\\n", 28) = 28
  8471  1796415124.783982 exit_group(0)   = ?
`);

const byKind = (records: ProbeRecord[], kind: ProbeRecord['kind']) => records.filter((r) => r.kind === kind);
const under = (dir: string) => (path: string) => path.startsWith(`${dir}/`);

describe('parseStraceLines', () => {
  it('joins a call two lines tell (unfinished, resumed), reads padded results and -y paths', () => {
    const calls = parseStraceLines(SEQUENTIAL);
    const third = calls.find((c) => 'name' in c && c.name === 'openat' && c.resultPath === '/w/third.txt');
    expect(third).toMatchObject({ tid: 8468, result: 7, atMs: 1796415124779.341 });
    expect(calls.at(-1)).toMatchObject({ name: 'exit_group', result: null });
  });

  it("unescapes a write's string as strace escapes it", () => {
    expect(firstStringArg('1<pipe:[7]>, "\\26=== RUN   TestA\\n\\"q\\"\\x41", 9')).toBe('\u0016=== RUN   TestA\n"q"A');
  });
});

describe('ledgerRecords', () => {
  it('names the test running at each open and lists, at each end, what was still open; threads are one process', () => {
    const records = ledgerRecords(SEQUENTIAL, { parentPid: 8400, keepPath: under('/w') });
    expect(byKind(records, 'process')).toEqual([expect.objectContaining({ pid: 8468, ppid: 8400, runtime: 'strace', argv: ['./leak.test', '-test.v'] })]);
    expect(byKind(records, 'open').map((o) => o.kind === 'open' && [o.path, o.fd, o.test])).toEqual([
      ['/w/first.txt', 3, 'TestFirst'],
      ['/w/second.txt', 3, 'TestSecond'],
      ['/w/third.txt', 7, 'TestThird'],
    ]);
    const ends = byKind(records, 'test').flatMap((r) => (r.kind === 'test' && r.event === 'end' ? [[r.name, r.open]] : []));
    expect(ends).toEqual([
      ['TestFirst', []],
      ['TestSecond', [2]],
      ['TestThird', []],
    ]);
    expect(byKind(records, 'exit')).toEqual([expect.objectContaining({ pid: 8468, open: [2], atMs: 1796415124783.982 })]);
  });

  it('finds the leak of the second test as a probe leak no scan saw, and only that one', () => {
    const leaks = findProbeLeaks(indexProbeRecords(ledgerRecords(SEQUENTIAL, { keepPath: under('/w') })), {
      watchedDirOf: (p) => (p.startsWith('/w/') ? '/w' : null),
      seen: () => false,
    });
    expect(leaks.map((l) => [l.open.path, l.stack.test, l.stack.runtime, l.stack.heldPastTest])).toEqual([['/w/second.txt', 'TestSecond', 'strace', true]]);
  });

  it('matches a scan that read the fd while strace held the binary at its exit: still open then', () => {
    const index = indexProbeRecords(ledgerRecords(SEQUENTIAL, { keepPath: under('/w') }));
    const seenAtExit = {
      pid: 8468,
      processStartedAtMs: 1796415124772,
      kind: 'file' as const,
      path: '/w/second.txt',
      handle: 'fd 3',
      firstSeenAtMs: 1796415124790,
    };
    const lookup = matchOpenStack({ ...seenAtExit, seenFromMs: 1796415124785 }, index);
    expect(lookup).toMatchObject({ found: true, matchedBy: 'fd', stack: { test: 'TestSecond', heldPastTest: true, runtime: 'strace' } });
  });

  it('ends a subtest when its parent starts the next one, though Go prints its end only with its parent', () => {
    const ledger = T(`
      10 1.000000 execve("./x.test", ["./x.test"], 0x1 /* 1 vars */) = 0
      10 1.001000 write(1<pipe:[7]>, "=== RUN   TestServer\\n", 21) = 21
      10 1.002000 write(1<pipe:[7]>, "=== RUN   TestServer/local\\n", 27) = 27
      10 1.003000 openat(AT_FDCWD</src>, "/w/mod/.", O_RDONLY|O_CLOEXEC) = 6</w/mod>
      10 1.004000 write(1<pipe:[7]>, "=== RUN   TestServer/search\\n", 28) = 28
      10 1.005000 openat(AT_FDCWD</src>, "/w/mod/.", O_RDONLY|O_CLOEXEC) = 7</w/mod>
      10 1.006000 unlinkat(AT_FDCWD</src>, "/w/mod", AT_REMOVEDIR) = 0
      10 1.007000 write(1<pipe:[7]>, "--- PASS: TestServer (0.01s)\\n    --- PASS: TestServer/local (0.00s)\\n    --- PASS: TestServer/search (0.00s)\\n", 100) = 100
      10 1.008000 exit_group(0) = ?
    `);
    const records = ledgerRecords(ledger, { keepPath: under('/w') });
    expect(byKind(records, 'open').map((o) => o.kind === 'open' && o.test)).toEqual(['TestServer/local', 'TestServer/search']);
    const ends = records.flatMap((r) => (r.kind === 'test' && r.event === 'end' ? [[r.name, r.atMs, r.open, r.unlinked]] : []));
    expect(ends).toEqual([
      ['TestServer/local', 1004, [1], undefined],
      ['TestServer', 1007, [], undefined],
      ['TestServer/search', 1007, [2], [2]],
    ]);
    expect(byKind(records, 'delete')).toEqual([expect.objectContaining({ path: '/w/mod', held: [1, 2], api: 'unlinkat', test: 'TestServer/search' })]);
  });

  it('names no test for an open made while parallel tests ran, and judges it at the last of their ends', () => {
    const ledger = T(`
      10 1.000000 execve("./x.test", ["./x.test"], 0x1 /* 1 vars */) = 0
      10 1.001000 write(1<pipe:[7]>, "=== RUN   TestPar\\n=== RUN   TestPar/a\\n=== PAUSE TestPar/a\\n=== RUN   TestPar/b\\n=== PAUSE TestPar/b\\n", 90) = 90
      10 1.002000 write(1<pipe:[7]>, "=== CONT  TestPar/a\\n", 20) = 20
      10 1.003000 openat(AT_FDCWD</src>, "/w/only-a", O_RDONLY|O_CLOEXEC) = 5</w/only-a>
      10 1.004000 close(5</w/only-a>) = 0
      11 1.005000 write(1<pipe:[7]>, "=== CONT  TestPar/b\\n", 20) = 20
      10 1.006000 openat(AT_FDCWD</src>, "/w/a-or-b", O_RDONLY|O_CLOEXEC) = 6</w/a-or-b>
      10 1.007000 write(1<pipe:[7]>, "--- PASS: TestPar (0.00s)\\n    --- PASS: TestPar/a (0.00s)\\n    --- PASS: TestPar/b (0.00s)\\n", 90) = 90
      10 1.008000 exit_group(0) = ?
      10 1.000500 clone(child_stack=0x1, flags=CLONE_VM|CLONE_FILES|CLONE_THREAD) = 11
    `);
    const records = ledgerRecords(ledger, { keepPath: under('/w') });
    expect(byKind(records, 'open').map((o) => o.kind === 'open' && [o.path, o.test, o.among])).toEqual([
      ['/w/only-a', 'TestPar/a', undefined],
      ['/w/a-or-b', undefined, ['TestPar/a', 'TestPar/b']],
    ]);
    const leaks = findProbeLeaks(indexProbeRecords(records), { watchedDirOf: () => '/w', seen: () => false });
    expect(leaks.map((l) => [l.open.path, l.stack.test, l.stack.ambiguousAmong, l.stack.heldPastTest])).toEqual([
      ['/w/a-or-b', undefined, ['TestPar/a', 'TestPar/b'], true],
    ]);
  });

  it("gives a child process its copies of the parent's fds until its exec closes the close-on-exec ones", () => {
    const ledger = T(`
      10 1.000000 execve("./x.test", ["./x.test"], 0x1 /* 1 vars */) = 0
      10 1.001000 write(1<pipe:[7]>, "=== RUN   TestChild\\n", 20) = 20
      10 1.002000 openat(AT_FDCWD</src>, "/w/kept", O_WRONLY|O_CREAT, 0644) = 3</w/kept>
      10 1.003000 openat(AT_FDCWD</src>, "/w/cloexec", O_RDONLY|O_CLOEXEC) = 4</w/cloexec>
      10 1.004000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD <unfinished ...>
      12 1.005000 execve("/usr/bin/sleep", ["sleep", "9"], 0x1 /* 1 vars */) = 0
      10 1.006000 <... clone resumed>) = 12
      10 1.007000 close(3</w/kept>) = 0
      10 1.008000 close(4</w/cloexec>) = 0
      10 1.009000 write(1<pipe:[7]>, "--- PASS: TestChild (0.00s)\\n", 28) = 28
    `);
    const records = ledgerRecords(ledger, { keepPath: under('/w') });
    expect(byKind(records, 'process').map((p) => p.kind === 'process' && [p.pid, p.ppid, p.argv])).toEqual([
      [10, 0, ['./x.test']],
      [12, 10, ['sleep', '9']],
    ]);
    const childEnd = records.find((r) => r.kind === 'test' && r.event === 'end' && r.pid === 12);
    expect(childEnd).toMatchObject({ name: 'TestChild', open: [3] }); // /w/kept, the child's copy
    expect(byKind(records, 'exit').map((e) => e.kind === 'exit' && [e.pid, e.open])).toEqual([
      [10, []],
      [12, [3]],
    ]);
  });
});

// gastownhall/beads#4935 (tests/corpus/beads-jj-chdir): each subtest chdirs into its own t.TempDir();
// the parent restores the cwd only after all of them, so each TempDir cleanup removes the cwd.
const CHDIR_SUBTESTS = T(`
  20948 1796496085.970000 execve("./beadsjj.test", ["./beadsjj.test", "-test.v"], 0x1 /* 1 vars */) = 0
  20948 1796496085.977707 write(1</dev/null>, "=== RUN   TestIsJujutsuRepo\\n", 28) = 28
  20948 1796496085.978132 write(1</dev/null>, "=== RUN   TestIsJujutsuRepo/not_a_jj_repo\\n", 42) = 42
  20948 1796496085.978523 chdir("/w/TestIsJujutsuReponot_a_jj_repo3748681625/001") = 0
  20948 1796496085.978880 unlinkat(AT_FDCWD</w/TestIsJujutsuReponot_a_jj_repo3748681625/001>, "/w/TestIsJujutsuReponot_a_jj_repo3748681625", AT_REMOVEDIR) = -1 ENOTEMPTY (Directory not empty)
  20948 1796496085.978938 openat(AT_FDCWD</w/TestIsJujutsuReponot_a_jj_repo3748681625/001>, "/w", O_RDONLY|O_CLOEXEC) = 3</w>
  20948 1796496085.979167 openat(3</w>, "TestIsJujutsuReponot_a_jj_repo3748681625", O_RDONLY|O_CLOEXEC) = 7</w/TestIsJujutsuReponot_a_jj_repo3748681625>
  20948 1796496085.979572 unlinkat(7</w/TestIsJujutsuReponot_a_jj_repo3748681625>, "001", AT_REMOVEDIR) = 0
  20948 1796496085.979686 close(7</w/TestIsJujutsuReponot_a_jj_repo3748681625>) = 0
  20948 1796496085.979763 unlinkat(3</w>, "TestIsJujutsuReponot_a_jj_repo3748681625", AT_REMOVEDIR) = 0
  20948 1796496085.979814 close(3</w>) = 0
  20948 1796496085.979889 write(1</dev/null>, "=== RUN   TestIsJujutsuRepo/jj_repo_subdirectory\\n", 49) = 49
  20948 1796496085.982343 chdir("/w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001/src/lib") = 0
  20948 1796496085.983819 unlinkat(9</w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001/src>, "lib", AT_REMOVEDIR) = 0
  20948 1796496085.983964 unlinkat(8</w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001>, "src", AT_REMOVEDIR) = 0
  20948 1796496085.984769 chdir("/src/beads") = 0
  20948 1796496085.985208 write(1</dev/null>, "--- PASS: TestIsJujutsuRepo (0.01s)\\n    --- PASS: TestIsJujutsuRepo/not_a_jj_repo (0.00s)\\n    --- PASS: TestIsJujutsuRepo/jj_repo_subdirectory (0.00s)\\n", 150) = 150
  20948 1796496085.985281 write(1</dev/null>, "=== RUN   TestGetJujutsuRootRestored\\n", 37) = 37
  20948 1796496085.985769 chdir("/w/TestGetJujutsuRootRestored2667227861/001") = 0
  20948 1796496085.985905 chdir("/src/beads") = 0
  20948 1796496085.987037 unlinkat(7</w/TestGetJujutsuRootRestored2667227861>, "001", AT_REMOVEDIR) = 0
  20948 1796496085.987401 write(1</dev/null>, "--- PASS: TestGetJujutsuRootRestored (0.00s)\\n", 45) = 45
  20948 1796496085.987600 exit_group(0)   = ?
`);

describe('ledgerRecords: the working directory', () => {
  it('records each chdir under the watched dir as an open with no fd, closed by the next chdir, in its test', () => {
    const records = ledgerRecords(CHDIR_SUBTESTS, { keepPath: under('/w') });
    const cwds = records.filter((r) => r.kind === 'open' && r.cwd);
    expect(cwds.map((o) => o.kind === 'open' && [o.id, o.path, o.fd, o.api, o.test])).toEqual([
      [1, '/w/TestIsJujutsuReponot_a_jj_repo3748681625/001', null, 'chdir', 'TestIsJujutsuRepo/not_a_jj_repo'],
      [3, '/w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001/src/lib', null, 'chdir', 'TestIsJujutsuRepo/jj_repo_subdirectory'],
      [4, '/w/TestGetJujutsuRootRestored2667227861/001', null, 'chdir', 'TestGetJujutsuRootRestored'],
    ]);
    // The first is still the cwd when its subtest ends (its sibling's RUN); the last two were left first.
    const ends = records.flatMap((r) => (r.kind === 'test' && r.event === 'end' ? [[r.name, r.open, r.unlinked]] : []));
    expect(ends).toEqual([
      ['TestIsJujutsuRepo/not_a_jj_repo', [1], [1]],
      ['TestIsJujutsuRepo', [], undefined],
      ['TestIsJujutsuRepo/jj_repo_subdirectory', [], undefined],
      ['TestGetJujutsuRootRestored', [], undefined],
    ]);
    const cwdCloses = records.filter((r) => r.kind === 'close' && r.fd === null);
    expect(cwdCloses.map((c) => c.kind === 'close' && [c.id, c.atMs])).toEqual([
      [1, 1796496085982.343],
      [3, 1796496085984.769],
      [4, 1796496085985.905],
    ]);
  });

  it('records a delete of the cwd or a dir above it as a delete with the cwd flag; one left before is not held', () => {
    const records = ledgerRecords(CHDIR_SUBTESTS, { keepPath: under('/w') });
    expect(byKind(records, 'delete').map((d) => d.kind === 'delete' && [d.path, d.held, d.cwd, d.test])).toEqual([
      ['/w/TestIsJujutsuReponot_a_jj_repo3748681625/001', [1], true, 'TestIsJujutsuRepo/not_a_jj_repo'],
      ['/w/TestIsJujutsuReponot_a_jj_repo3748681625', [1], true, 'TestIsJujutsuRepo/not_a_jj_repo'],
      ['/w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001/src/lib', [3], true, 'TestIsJujutsuRepo/jj_repo_subdirectory'],
      ['/w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001/src', [3], true, 'TestIsJujutsuRepo/jj_repo_subdirectory'],
    ]);
    const leaks = findProbeLeaks(indexProbeRecords(records), { watchedDirOf: () => '/w', seen: () => false });
    expect(leaks.map((l) => [l.open.path, l.open.cwd, l.stack.test, l.stack.deletedBy?.api])).toEqual([
      ['/w/TestIsJujutsuReponot_a_jj_repo3748681625/001', true, 'TestIsJujutsuRepo/not_a_jj_repo', 'unlinkat'],
      ['/w/TestIsJujutsuRepojj_repo_subdirectory1620450575/001/src/lib', true, 'TestIsJujutsuRepo/jj_repo_subdirectory', 'unlinkat'],
    ]);
  });

  it('resolves a relative chdir and an fchdir, and gives a child its copy of the cwd', () => {
    const ledger = T(`
      10 1.000000 execve("./x.test", ["./x.test"], 0x1 /* 1 vars */) = 0
      10 1.001000 write(1<pipe:[7]>, "=== RUN   TestCwd\\n", 18) = 18
      10 1.002000 chdir("/w/a/b") = 0
      10 1.003000 chdir("../c/./d") = 0
      10 1.004000 openat(AT_FDCWD</w/a/c/d>, "/w/e", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = 3</w/e>
      10 1.005000 fchdir(3</w/e>) = 0
      10 1.006000 chdir("/w/missing") = -1 ENOENT (No such file or directory)
      10 1.007000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 12
      12 1.008000 execve("/usr/bin/sleep", ["sleep", "9"], 0x1 /* 1 vars */) = 0
      10 1.009000 write(1<pipe:[7]>, "--- PASS: TestCwd (0.00s)\\n", 26) = 26
    `);
    const records = ledgerRecords(ledger, { keepPath: under('/w') });
    const cwds = byKind(records, 'open').filter((o) => o.kind === 'open' && o.cwd);
    expect(cwds.map((o) => o.kind === 'open' && [o.pid, o.path, o.api])).toEqual([
      [10, '/w/a/b', 'chdir'],
      [10, '/w/a/c/d', 'chdir'],
      [10, '/w/e', 'fchdir'],
      [12, '/w/e', 'inherited'],
    ]);
    expect(byKind(records, 'exit').map((e) => e.kind === 'exit' && [e.pid, e.open])).toEqual([
      [10, [3, 4]], // fd 3 (/w/e) and the cwd
      [12, [6]], // the cwd: its copy of fd 3 was close-on-exec
    ]);
  });
});

// jaegertracing/jaeger#8883 (tests/corpus/jaeger-binary-logs): the test hands its two log files to a
// child as stdout and stderr, kills and reaps the child in t.Cleanup, then TempDir's cleanup removes them.
const KILLED_CHILD = T(`
  24248 1796496211.526649 execve("./jaegerlogs.test", ["./jaegerlogs.test", "-test.v"], 0x1 /* 40 vars */) = 0
  24248 1796496211.540574 write(1</dev/null>, "=== RUN   TestMemoryStorage\\n", 28) = 28
  24248 1796496211.541432 openat(AT_FDCWD</src>, "/w/TestMemoryStorage2039683901/001/output_logs.txt", O_WRONLY|O_CREAT|O_CLOEXEC, 0777) = 3</w/TestMemoryStorage2039683901/001/output_logs.txt>
  24248 1796496211.542198 openat(AT_FDCWD</src>, "/w/TestMemoryStorage2039683901/002/error_logs.txt", O_WRONLY|O_CREAT|O_CLOEXEC, 0777) = 7</w/TestMemoryStorage2039683901/002/error_logs.txt>
  24248 1796496211.542816 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD <unfinished ...>
  24254 1796496211.545723 dup3(3</w/TestMemoryStorage2039683901/001/output_logs.txt>, 1</dev/null>, 0) = 1</w/TestMemoryStorage2039683901/001/output_logs.txt>
  24254 1796496211.545806 dup3(7</w/TestMemoryStorage2039683901/002/error_logs.txt>, 2</dev/null>, 0) = 2</w/TestMemoryStorage2039683901/002/error_logs.txt>
  24254 1796496211.545915 execve("./jaegerlogs.test", ["./jaegerlogs.test", "-test.run=^$"], 0xc000116160 /* 41 vars */ <unfinished ...>
  24248 1796496211.546436 <... clone resumed>) = 24254
  24254 1796496211.546862 <... execve resumed>) = 0
  24254 1796496211.548000 clone(child_stack=0xc000050000, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS, tls=0xc000040090) = 24255
  24254 1796496211.558165 write(1</w/TestMemoryStorage2039683901/001/output_logs.txt>, "ready: all-in-one on memory storage\\n", 36) = 36
  24248 1796496211.568534 write(1</dev/null>, "=== RUN   TestMemoryStorage/GetServices\\n", 40) = 40
  24248 1796496211.568859 write(1</dev/null>, "=== RUN   TestMemoryStorage/FindTraces\\n", 39) = 39
  24255 1796496211.570296 +++ killed by SIGKILL +++
  24254 1796496211.570303 +++ killed by SIGKILL +++
  24248 1796496211.570581 write(1</dev/null>, "=== CONT  TestMemoryStorage\\n", 28) = 28
  24248 1796496211.571722 unlinkat(11</w/TestMemoryStorage2039683901/001>, "output_logs.txt", 0) = 0
  24248 1796496211.572142 unlinkat(11</w/TestMemoryStorage2039683901/002>, "error_logs.txt", 0) = 0
  24248 1796496211.572695 write(1</dev/null>, "--- PASS: TestMemoryStorage (0.03s)\\n    --- PASS: TestMemoryStorage/GetServices (0.00s)\\n    --- PASS: TestMemoryStorage/FindTraces (0.00s)\\n", 139) = 139
  24248 1796496211.576810 exit_group(0)   = ?
`);

describe('ledgerRecords: a child killed by a signal', () => {
  it("ends the child's holdings at strace's `killed by` line, so the parent's later delete holds only its own", () => {
    const records = ledgerRecords(KILLED_CHILD, { keepPath: under('/w') });
    expect(byKind(records, 'exit').map((e) => e.kind === 'exit' && [e.pid, e.atMs, e.open])).toEqual([
      [24254, 1796496211570.296, [5, 6]], // its stdout and stderr, the dup3s (the inherited copies were close-on-exec)
      [24248, 1796496211576.81, [1, 2]],
    ]);
    expect(byKind(records, 'delete').map((d) => d.kind === 'delete' && [d.pid, d.path, d.held])).toEqual([
      [24248, '/w/TestMemoryStorage2039683901/001/output_logs.txt', [1]],
      [24248, '/w/TestMemoryStorage2039683901/002/error_logs.txt', [2]],
    ]);
    const leaks = findProbeLeaks(indexProbeRecords(records), { watchedDirOf: () => '/w', seen: () => false });
    expect(leaks.map((l) => [l.process.pid, l.open.path, l.stack.test])).toEqual([
      [24248, '/w/TestMemoryStorage2039683901/001/output_logs.txt', 'TestMemoryStorage'],
      [24248, '/w/TestMemoryStorage2039683901/002/error_logs.txt', 'TestMemoryStorage'],
    ]);
  });

  it('records the clone as the spawn of the child, in the test running then, named by its exec', () => {
    const records = ledgerRecords(KILLED_CHILD, { keepPath: under('/w') });
    expect(byKind(records, 'spawn')).toEqual([
      expect.objectContaining({
        pid: 24248,
        childPid: 24254,
        api: 'clone',
        test: 'TestMemoryStorage',
        atMs: 1796496211546.436,
        argv: ['./jaegerlogs.test', '-test.run=^$'],
      }),
    ]);
    // What a scan of the child reads from it: the clone's test, not the test running when the scan dated its start.
    const lookup = matchSpawnStack({ pid: 24254, ppid: 24248, startedAtMs: 1796496211569 }, indexProbeRecords(records));
    expect(lookup).toMatchObject({ found: true, matchedBy: 'child-pid', stack: { test: 'TestMemoryStorage', runtime: 'strace' } });
  });
});
