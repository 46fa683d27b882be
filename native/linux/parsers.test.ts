import { describe, expect, it } from 'vitest';
import { parseMapsLine } from './fd-walk.js';
import { displayName, formatCommandLine, parseStat } from './proc-stat.js';
import { parsePasswd } from './users.js';

describe('parseStat', () => {
  it('reads ppid and start time after a name with spaces and parentheses', () => {
    const fields = ['S', '42', ...Array(17).fill('0'), '12345', ...Array(5).fill('0'), '140733012622432', '0'];
    const text = `1234 (my (odd) name) ${fields.join(' ')}\n`;
    expect(parseStat(text, 1_700_000_000_000)).toEqual({
      name: 'my (odd) name',
      ppid: 42,
      startedAtMs: 1_700_000_000_000 + 123_450,
      stackStart: 140733012622432,
      kernelThread: false,
      exiting: false,
    });
  });

  it('tells a kernel thread and a process in its exit by state and flags', () => {
    const stat = (state: string, flags: number) => `7 (x) ${[state, '2', '0', '0', '0', '0', String(flags), ...Array(19).fill('0')].join(' ')}\n`;
    expect(parseStat(stat('S', 0x00208040), 0)).toMatchObject({ kernelThread: true, exiting: false });
    expect(parseStat(stat('Z', 0x00400104), 0)).toMatchObject({ kernelThread: false, exiting: true });
    expect(parseStat(stat('R', 0x00400004), 0)).toMatchObject({ kernelThread: false, exiting: true });
    expect(parseStat(stat('S', 0x00400100), 0)).toMatchObject({ kernelThread: false, exiting: false });
  });

  it('parses this process itself', async () => {
    const { readStat } = await import('./proc-stat.js');
    const stat = readStat(process.pid);
    expect(stat.ppid).toBe(process.ppid);
    expect(Math.abs(stat.startedAtMs - (Date.now() - process.uptime() * 1000))).toBeLessThan(5_000);
  });
});

describe('parseMapsLine', () => {
  it('keeps paths with spaces and the deleted mark, skips anonymous mappings', () => {
    expect(parseMapsLine('7f00-7f01 r--s 00000000 08:01 1234                       /tmp/a b/c.so (deleted)')).toEqual({
      inode: 1234,
      target: '/tmp/a b/c.so (deleted)',
    });
    expect(parseMapsLine('7f00-7f01 rw-p 00000000 00:00 0 ')).toBeNull();
    expect(parseMapsLine('7ffc-7ffd rw-p 00000000 00:00 0                          [stack]')).toBeNull();
  });
});

describe('formatCommandLine', () => {
  it('quotes arguments with spaces or quotes', () => {
    expect(formatCommandLine(['python3', '-m', 'pytest', 'a b', 'say "hi"', ''])).toBe('python3 -m pytest "a b" "say \\"hi\\"" ""');
  });
});

describe('parsePasswd', () => {
  it('maps uids to the first name that claims them', () => {
    const map = parsePasswd('root:x:0:0:root:/root:/bin/bash\n#comment\nnobody:x:65534:65534::/:/usr/sbin/nologin\ntoor:x:0:0::/:/bin/sh\n');
    expect(map.get(0)).toBe('root');
    expect(map.get(65534)).toBe('nobody');
    expect(map.size).toBe(2);
  });
});

describe('displayName', () => {
  it('is comm, unless comm is a thread name: Node 24 names its main thread MainThread', () => {
    expect(displayName('MainThread', '/opt/node-24/bin/node', '/opt/node-24/bin/node')).toBe('node');
    expect(displayName('MainThread', 'node', null)).toBe('node'); // another user's: exe unreadable
    expect(displayName('bash', '-bash', '/usr/bin/bash')).toBe('bash');
    expect(displayName('python3', '/usr/bin/python3', '/usr/bin/python3.11')).toBe('python3');
    // comm is cut at 15 bytes: the whole name it starts is the name.
    expect(displayName('holdwatch-scann', '/x/holdwatch-scanner', '/x/holdwatch-scanner')).toBe('holdwatch-scanner');
    expect(displayName('launcherhistory', '/b001/launcherhistory.test', null)).toBe('launcherhistory.test');
  });

  it('keeps comm for a program that set its own title or argv[0]', () => {
    expect(displayName('postgres', 'postgres: checkpointer', '/usr/lib/postgresql/15/bin/postgres')).toBe('postgres');
    expect(displayName('sleep', 'pretend', '/usr/bin/sleep')).toBe('sleep'); // exec -a pretend sleep
    expect(displayName('MainThread', 'my server: worker', null)).toBe('MainThread');
    expect(displayName('kworker/0:1', undefined, null)).toBe('kworker/0:1');
  });
});
