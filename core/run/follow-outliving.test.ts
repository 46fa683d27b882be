import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../contract/holders.js';
import type { Clock } from '../clock.js';
import type { ProcessBrief, ProcessSource } from '../platform.js';
import type { Watcher } from '../watch.js';
import { followOutliving } from './follow-outliving.js';
import { RunMembership } from './membership.js';

/** A process table the command has left (it exited, no descendant outlived it); each listing's `fresh` is recorded. */
class ExitedCommandSource implements ProcessSource {
  readonly listings: (boolean | undefined)[] = [];
  async listProcesses(options: { fresh?: boolean } = {}): Promise<ProcessBrief[]> {
    this.listings.push(options.fresh);
    return [{ pid: 1, ppid: 0, startedAtMs: 0, name: 'init' }];
  }
  async processInfo(): Promise<ProcessInfo | null> {
    return null;
  }
  async readEnvironmentVariable(): Promise<string | null> {
    return null;
  }
}

const clock: Clock = { now: () => 0, setTimeout: () => () => undefined };

describe('followOutliving', () => {
  it('lists the process table as the run’s polls do, not re-reading every process: nothing outlived, nothing scanned', async () => {
    const source = new ExitedCommandSource();
    const membership = new RunMembership(source, 'run-1', 100);
    const stages: string[] = [];
    await followOutliving({
      watcher: {} as Watcher, // never asked: no member is alive
      membership,
      clock,
      graceMs: 5000,
      intervalMs: 100,
      deadlineMs: 60_000,
      isKnown: () => true,
      stage: (stage) => stages.push(stage),
      onError: (error) => {
        throw error;
      },
    });
    expect(source.listings).toEqual([false]);
    expect(stages).toEqual([]);
  });
});
