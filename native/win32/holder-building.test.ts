// holdwatch's own processes, as a scan asks for them twice a poll: worked out from the process tree
// once, and again only when a process came or went (the identities' version) or the roots changed.
import { describe, expect, it } from 'vitest';
import { HolderBuilder } from './holder-building.js';
import type { ProcessIdentities, ProcessIdentity } from './process-identities.js';
import type { ProcessReader } from './process-reader.js';

const identity = (pid: number, ppid: number, imageName: string): ProcessIdentity => ({ pid, ppid, imageName, createTime: 1n, denied: null, protection: null });

describe('HolderBuilder.ownPids', () => {
  it('answers from the last tree until a process comes or goes or the roots change', () => {
    const processes = [identity(10, 9, 'node.exe'), identity(11, 10, 'node.exe'), identity(13, 11, 'conhost.exe'), identity(12, 10, 'node.exe')];
    const identities = { version: 1, values: () => processes.values() };
    let roots = [10, 11];
    const builder = new HolderBuilder(identities as unknown as ProcessIdentities, {} as ProcessReader, () => roots);
    const first = builder.ownPids();
    expect([...first].sort()).toEqual([10, 11, 13]);
    expect(builder.ownPids()).toBe(first);
    processes.push(identity(14, 10, 'conhost.exe'));
    identities.version++;
    expect([...builder.ownPids()].sort()).toEqual([10, 11, 13, 14]);
    roots = [10];
    expect([...builder.ownPids()].sort()).toEqual([10, 14]);
  });
});
