import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../contract/holders.js';
import { refusalToEnd } from './end-policy.js';

const proc = (over: Partial<ProcessInfo>): ProcessInfo => ({
  pid: 500,
  ppid: 100,
  startedAtMs: 0,
  name: 'python3',
  exe: '/usr/bin/python3',
  commandLine: 'python3 x.py',
  user: 'dev',
  ...over,
});

describe('refusalToEnd', () => {
  const linux = { ownPids: [77, 78], platform: 'linux' as const };
  const win = { ownPids: [77], platform: 'win32' as const };

  it('allows an ordinary process', () => {
    expect(refusalToEnd(proc({}), linux)).toBeNull();
    expect(refusalToEnd(proc({ name: 'node.exe' }), win)).toBeNull();
  });

  it('refuses holdwatch itself and its worker', () => {
    expect(refusalToEnd(proc({ pid: 77 }), linux)).toMatch(/holdwatch itself/);
    expect(refusalToEnd(proc({ pid: 78 }), linux)).toMatch(/holdwatch itself/);
  });

  it('refuses init and kernel threads on Linux', () => {
    expect(refusalToEnd(proc({ pid: 1, ppid: 0, name: 'systemd' }), linux)).toMatch(/init/);
    expect(refusalToEnd(proc({ pid: 9, ppid: 2, name: 'kworker/0:1', exe: null }), linux)).toMatch(/kernel thread/);
    // An exited process whose image can no longer be read is not a system process.
    expect(refusalToEnd(proc({ exe: null }), linux)).toBeNull();
  });

  it('refuses Windows system processes by pid and by name', () => {
    expect(refusalToEnd(proc({ pid: 4, name: 'System' }), win)).toMatch(/system process/);
    expect(refusalToEnd(proc({ pid: 612, name: 'CSRSS.EXE' }), win)).toMatch(/system process/);
  });
});
