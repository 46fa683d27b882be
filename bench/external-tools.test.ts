import { describe, expect, it } from 'vitest';
import { parseFloorOutput } from './c-floor.js';
import { parseFuserPids, parseLsofPids, parseSnapshotPids } from './external-tools.js';

describe('output parsers', () => {
  it('reads the PID column of lsof, skipping the header, with or without a TID column', () => {
    const out = [
      'COMMAND   PID  TID TASKCMD USER FD TYPE DEVICE SIZE/OFF NODE NAME',
      'python3  4242            root  3r  REG  254,0  7 12 /tmp/t/a',
      'node     4300 4301 node  root  5r  REG  254,0  7 13 /tmp/t/b',
      '',
    ].join('\n');
    expect([...parseLsofPids(out)]).toEqual([4242, 4300]);
  });
  it('reads fuser stdout, which holds only pids', () => {
    expect([...parseFuserPids(' 101 102\n 103')]).toEqual([101, 102, 103]);
  });
  it('reads holders from the scan --json snapshot', () => {
    expect([...parseSnapshotPids(JSON.stringify({ holders: [{ pid: 7 }, { pid: 7 }, { pid: 9 }] }))]).toEqual([7, 9]);
  });
  it('reads the C floor run lines and its pid list', () => {
    const parsed = parseFloorOutput('run 12.5 900 11.0\nrun 10.5 901 10.25\npids 5 6\n');
    expect(parsed).toEqual({ samplesMs: [12.5, 10.5], cpuSamplesMs: [11, 10.25], links: 901, pids: new Set([5, 6]) });
  });
});
