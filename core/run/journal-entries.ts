// The run journal: append-only JSON lines, one entry per fact, flushed as it goes so a crash loses
// nothing. The RunRecord is always rebuilt from these entries (run-recorder.ts), live and later.
import type { AncestryEntry, Holder, LeftoverRecord, PlatformName, StackLookup, TestEvent } from '../api.js';
import type { TestHint } from './membership.js';

export interface MemberFacts {
  ancestry: AncestryEntry[];
  byTagOnly: boolean;
  /** The test the process was spawned in, from its inherited environment. */
  testHint?: TestHint;
}

export interface HolderStacks {
  open: StackLookup;
  spawn: StackLookup;
}

export type JournalEntry =
  | {
      t: 'run-start';
      runId: string;
      command: string[];
      cwd: string;
      watched: string[];
      platform: PlatformName;
      atMs: number;
      versions: { holdwatch: string; node: string; os: string };
    }
  | { t: 'test'; event: TestEvent }
  /** A holder first seen; `member` is null for processes outside the run. */
  /** `atMs`: end of the scan that first saw it; `scanStartedAtMs`: that scan's start (a sure sighting). */
  | { t: 'appeared'; atMs: number; scanStartedAtMs?: number; key: string; holder: Holder; member: MemberFacts | null }
  /** A holder no longer seen at `atMs`; it was last seen at `lastSeenAtMs`. */
  | { t: 'gone'; atMs: number; key: string; lastSeenAtMs: number }
  /** `test` when the runner said which test printed the line (go test -json); else found by time. */
  /** `scannedAtMs`: when the scan it triggered began (the snapshot's moment). */
  | { t: 'failure'; atMs: number; scannedAtMs?: number; text: string; path: string | null; kind: string; code: number | null; holderKeys: string[]; test?: string | null }
  /** The runner named the test of a failure first seen as a bare output line (the failure at `atMs`). */
  | { t: 'failure-test'; atMs: number; test: string }
  | { t: 'leftovers'; leftovers: LeftoverRecord[] }
  /** Open-time and spawn-time stacks per holder key, matched from the probes' logs at the end. */
  | { t: 'stacks'; byKey: Record<string, HolderStacks> }
  /** Closes the run; `lastSeen` gives the final sighting of the holders still alive. */
  | { t: 'run-end'; atMs: number; exitCode: number | null; lastSeen: Record<string, number> };
