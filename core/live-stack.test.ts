// The parsers against output captured from the real tools (gdb 13.1 and eu-stack 0.188 on Debian 12,
// a two-thread C program), and py-spy's --json shape (its StackTrace/Frame serde records).
import { describe, expect, it } from 'vitest';
import { describeUnavailable, formatLiveStack, isPermissionFailure, parseEuStack, parseGdbBacktrace, parsePySpyJson } from './live-stack.js';

const GDB = `[New LWP 16549]
[Thread debugging using libthread_db enabled]
Using host libthread_db library "/lib/x86_64-linux-gnu/libthread_db.so.1".
0x00007fa22a620545 in __GI___clock_nanosleep (clock_id=clock_id@entry=0, flags=flags@entry=0, req=req@entry=0x7fff0d282720, rem=rem@entry=0x7fff0d282720) at ../sysdeps/unix/sysv/linux/clock_nanosleep.c:48
48	../sysdeps/unix/sysv/linux/clock_nanosleep.c: No such file or directory.

Thread 2 (Thread 0x7fa22a54d6c0 (LWP 16549) "sleeper"):
#0  0x00007fa22a624df2 in __libc_pause () at ../sysdeps/unix/sysv/linux/pause.c:29
#1  0x000055af09c2216a in worker (arg=0x0) at sleeper.c:3
#2  0x00007fa22a5da1f5 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442
#3  0x00007fa22a65a8ec in clone3 () at ../sysdeps/unix/sysv/linux/x86_64/clone3.S:81

Thread 1 (Thread 0x7fa22a54e740 (LWP 16548) "sleeper"):
#0  0x00007fa22a620545 in __GI___clock_nanosleep (clock_id=clock_id@entry=0, flags=flags@entry=0, req=req@entry=0x7fff0d282720, rem=rem@entry=0x7fff0d282720) at ../sysdeps/unix/sysv/linux/clock_nanosleep.c:48
#1  0x00007f3a1c4e1e53 in nanosleep () from /lib/x86_64-linux-gnu/libc.so.6
#2  0x00007f3a1c5f1d8a in ?? ()
#3  0x000055af09c2217a in wait_forever () at sleeper.c:4
#4  main () at sleeper.c:5
[Inferior 1 (process 16548) detached]
`;

const EU_STACK = `PID 16548 - process
TID 16548:
#0  0x00007fa22a620545 clock_nanosleep@GLIBC_2.2.5 - /usr/lib/x86_64-linux-gnu/libc.so.6
    ../sysdeps/unix/sysv/linux/clock_nanosleep.c:48:7
#1  0x00007fa22a624d8a sleep - /usr/lib/x86_64-linux-gnu/libc.so.6
    ../sysdeps/posix/sleep.c:55:11
#2  0x000055af09c221a6 main - /tmp/live-exp/sleeper
    /tmp/live-exp/sleeper.c:5:65
#3  0x00007fa22a578305 __libc_start_main@@GLIBC_2.34 - /usr/lib/x86_64-linux-gnu/libc.so.6
#4  0x000055af09c22091
TID 16549:
#0  0x00007fa22a624df2 pause - /usr/lib/x86_64-linux-gnu/libc.so.6
`;

describe('parseGdbBacktrace', () => {
  it('reads threads by LWP with their names, and frames with file:line, module, ?? and no address', () => {
    const threads = parseGdbBacktrace(GDB, 16548);
    expect(threads.map((t) => [t.id, t.name, t.frames.length])).toEqual([
      [16549, 'sleeper', 4],
      [16548, 'sleeper', 5],
    ]);
    expect(threads[0]!.frames[1]).toEqual({ function: 'worker', file: 'sleeper.c', line: 3 });
    expect(threads[1]!.frames).toEqual([
      { function: '__GI___clock_nanosleep', file: '../sysdeps/unix/sysv/linux/clock_nanosleep.c', line: 48 },
      { function: 'nanosleep', module: '/lib/x86_64-linux-gnu/libc.so.6' },
      { function: '??' },
      { function: 'wait_forever', file: 'sleeper.c', line: 4 },
      { function: 'main', file: 'sleeper.c', line: 5 },
    ]);
  });

  it('puts frames without a thread header under the pid, and reads "process N" headers', () => {
    expect(parseGdbBacktrace('#0  0x1 in main () at a.c:1\n', 7)).toEqual([{ id: 7, frames: [{ function: 'main', file: 'a.c', line: 1 }] }]);
    expect(parseGdbBacktrace('Thread 1 (process 99 "x"):\n#0  f ()\n', 7)).toEqual([{ id: 99, name: 'x', frames: [{ function: 'f' }] }]);
    expect(parseGdbBacktrace('ptrace: Operation not permitted.\n', 7)).toEqual([]);
  });
});

describe('parseEuStack', () => {
  it('reads TIDs, drops symbol versions, keeps module and source line, names unknown frames ??', () => {
    const threads = parseEuStack(EU_STACK);
    expect(threads.map((t) => t.id)).toEqual([16548, 16549]);
    expect(threads[0]!.frames).toEqual([
      { function: 'clock_nanosleep', module: '/usr/lib/x86_64-linux-gnu/libc.so.6', file: '../sysdeps/unix/sysv/linux/clock_nanosleep.c', line: 48 },
      { function: 'sleep', module: '/usr/lib/x86_64-linux-gnu/libc.so.6', file: '../sysdeps/posix/sleep.c', line: 55 },
      { function: 'main', module: '/tmp/live-exp/sleeper', file: '/tmp/live-exp/sleeper.c', line: 5 },
      { function: '__libc_start_main', module: '/usr/lib/x86_64-linux-gnu/libc.so.6' },
      { function: '??' },
    ]);
    expect(threads[1]!.frames).toEqual([{ function: 'pause', module: '/usr/lib/x86_64-linux-gnu/libc.so.6' }]);
  });
});

describe('parsePySpyJson', () => {
  it('maps threads by OS thread id, Python frames with file and line, 0 meaning no line', () => {
    const json = JSON.stringify([
      {
        pid: 10,
        thread_id: 140000,
        thread_name: 'MainThread',
        os_thread_id: 10,
        active: false,
        owns_gil: false,
        frames: [
          { name: 'hold', filename: '/src/tests/test_x.py', module: null, short_filename: 'test_x.py', line: 42, locals: null, is_entry: true },
          { name: 'select', filename: 'libc.so.6', module: 'libc.so.6', short_filename: null, line: 0, locals: null, is_entry: false },
        ],
        process_info: null,
      },
      { pid: 10, thread_id: 140001, thread_name: null, os_thread_id: null, active: true, owns_gil: true, frames: [] },
    ]);
    expect(parsePySpyJson(json)).toEqual([
      {
        id: 10,
        name: 'MainThread',
        state: 'idle',
        frames: [
          { function: 'hold', file: '/src/tests/test_x.py', line: 42 },
          { function: 'select', file: 'libc.so.6', module: 'libc.so.6' },
        ],
      },
      { id: 140001, state: 'active', frames: [] },
    ]);
  });

  it('refuses what is not py-spy JSON', () => {
    expect(() => parsePySpyJson('Error: Permission Denied')).toThrow();
    expect(() => parsePySpyJson('[{"frames": 3}]')).toThrow();
  });
});

it('tells permission failures from other failures', () => {
  expect(isPermissionFailure('ptrace: Operation not permitted.')).toBe(true);
  expect(isPermissionFailure('eu-stack: dwfl_linux_proc_attach pid 1: Operation not permitted')).toBe(true);
  expect(isPermissionFailure('Error: No such process')).toBe(false);
});

it('formats a stack and an unavailable result as a user reads them', () => {
  const text = formatLiveStack({
    kind: 'stack',
    pid: 5,
    tool: 'minidump',
    dumpPath: 'C:\\d\\node-5.dmp',
    rawText: '',
    threads: [
      { id: 8, frames: [], state: 'Waiting:UserRequest', startAddress: '0x7ff1' },
      {
        id: 9,
        name: 'w',
        frames: [
          { function: 'f', file: 'a.py', line: 3 },
          { function: 'g', module: 'libc.so.6' },
        ],
      },
    ],
  });
  expect(text).toBe('minidump: C:\\d\\node-5.dmp\nthread 8 Waiting:UserRequest start 0x7ff1\nthread 9 "w"\n  f (a.py:3)\n  g [libc.so.6]\n');
  expect(describeUnavailable({ kind: 'unavailable', pid: 1, reason: 'no stack tool found', nextStep: 'install gdb' })).toBe('no stack tool found; install gdb');
});
