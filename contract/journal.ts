// The run journal: append-only JSON lines, one entry per fact, flushed as it goes so a crash loses
// nothing. The RunRecord is always rebuilt from these entries (core/run/run-recorder.ts), live and
// later. A journal read back from disk (`holdwatch report`, a followed run) is input from outside:
// every entry is checked against this schema; one that does not match is skipped and counted.
import { z } from 'zod';
import { AncestryEntrySchema, HolderSchema, PlatformNameSchema } from './holders.js';
import { LeftoverRecordSchema, TestEventSchema, TestOutcomeSchema, TestPhaseSchema, VersionsSchema } from './runs.js';
import { GC_RESOURCES, SCOPE_KINDS } from './enums.js';
import { DeletedBySchema, StackLookupSchema } from './stacks.js';

const ms = z.number().finite();

/** The test a process was spawned in, from its inherited environment (PYTEST_CURRENT_TEST, BATS_SUITE_TEST_NUMBER). */
export const TestHintSchema = z.union([
  z.object({ runner: z.literal('pytest'), nodeId: z.string(), phase: z.string() }),
  z.object({ runner: z.literal('bats'), number: z.number().int().positive() }),
]);
export type TestHint = z.infer<typeof TestHintSchema>;

export const MemberFactsSchema = z.object({
  ancestry: z.array(AncestryEntrySchema),
  byTagOnly: z.boolean(),
  /** The test the process was spawned in, from its inherited environment. */
  testHint: TestHintSchema.optional(),
});
export type MemberFacts = z.infer<typeof MemberFactsSchema>;

export const HolderStacksSchema = z.object({
  open: StackLookupSchema,
  spawn: StackLookupSchema,
  /** A probed ancestor's delete that met this holding while its process, a live child, held it. */
  deletedBy: DeletedBySchema.optional(),
});
export type HolderStacks = z.infer<typeof HolderStacksSchema>;

/**
 * A phase of a test folded into the entry of its end: `[phase, atMs]` its start, `[phase, atMs, outcome]`
 * its report. It stands for the phase event `{ type: 'phase', name, phase, atMs, outcome }` of that test,
 * stamped where its end was (`inTestProcess`).
 */
export const FoldedPhaseSchema = z.union([z.tuple([TestPhaseSchema, ms]), z.tuple([TestPhaseSchema, ms, TestOutcomeSchema])]);
export type FoldedPhase = z.infer<typeof FoldedPhaseSchema>;

export const JournalEntrySchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('run-start'),
    runId: z.string(),
    command: z.array(z.string()),
    cwd: z.string(),
    watched: z.array(z.string()),
    platform: PlatformNameSchema,
    atMs: ms,
    versions: VersionsSchema,
  }),
  /**
   * A runner's test event. A test's end may carry its phases that did not fail (`phases`, in the order
   * they happened): they are read as that test's phase events, before its end. A journal written before
   * phases were folded has one entry per phase instead, and reads the same.
   */
  z.object({ t: z.literal('test'), event: TestEventSchema, phases: z.array(FoldedPhaseSchema).optional() }),
  /** A holder first seen; `member` is null for processes outside the run. */
  z.object({
    t: z.literal('appeared'),
    /** End of the scan that first saw it. */
    atMs: ms,
    /** That scan's start (a sure sighting). */
    scanStartedAtMs: ms.optional(),
    key: z.string(),
    holder: HolderSchema,
    member: MemberFactsSchema.nullable(),
  }),
  /** A holder's process changed what it is while holding it (exec): `holder` is its row as that scan saw it. */
  z.object({ t: z.literal('changed'), atMs: ms, key: z.string(), holder: HolderSchema }),
  /** A holder's path was unlinked while it held it (seen so by the scan that began at `atMs`). */
  z.object({ t: z.literal('deleted'), atMs: ms, key: z.string() }),
  /** A holder no longer seen at `atMs`; it was last seen at `lastSeenAtMs`. */
  z.object({ t: z.literal('gone'), atMs: ms, key: z.string(), lastSeenAtMs: ms }),
  z.object({
    t: z.literal('failure'),
    atMs: ms,
    /** When the scan it triggered began (the snapshot's moment). */
    scannedAtMs: ms.optional(),
    text: z.string(),
    path: z.string().nullable(),
    kind: z.string(),
    code: z.number().nullable(),
    holderKeys: z.array(z.string()),
    /** Set when the runner said which test printed the line (go test -json); else found by time. */
    test: z.string().nullable().optional(),
  }),
  /**
   * The scan at a test's end, which the test process waited for (the test-boundary channel): `atMs` is
   * the runner's end of the test, `held` the run's holders current after the scan (by key).
   */
  z.object({
    t: z.literal('boundary'),
    /** The test that ended; with `scope`, the wider scope that ended (a module's, a class's, the session). */
    test: z.string(),
    scope: z.enum(SCOPE_KINDS).optional(),
    /** The process listed what it held itself (self-inventory): no scan, `held` is its own list. */
    listed: z.literal(true).optional(),
    atMs: ms,
    /** The test process that waited: the boundary speaks for it and its descendants. */
    pid: z.number().int().nonnegative(),
    /**
     * The process did not wait for this scan (it was still behind on an earlier one): it went on at
     * `atMs`, so what the scan did not see says nothing of the test's end.
     */
    unwaited: z.literal(true).optional(),
    scanStartedAtMs: ms,
    scanEndedAtMs: ms,
    held: z.array(z.string()),
  }),
  /**
   * Process `pid` stopped waiting for the scan at the end of `test` (atMs: that end, as its boundary
   * entry has it) at `wentOnAtMs`: a scan that ended later may have missed what the test left open
   * and was let go since. Written when the process says so, before or after that boundary's entry.
   */
  z.object({
    t: z.literal('went-on'),
    test: z.string(),
    scope: z.enum(SCOPE_KINDS).optional(),
    atMs: ms,
    pid: z.number().int().nonnegative(),
    wentOnAtMs: ms,
  }),
  /**
   * The scan while process `pid` was stopped at its exit, its files all still open (a Go test binary
   * under holdwatch's -exec program): `held` is what that process held then (by key), past every test of it.
   */
  z.object({
    t: z.literal('exit-stop'),
    atMs: ms,
    pid: z.number().int().nonnegative(),
    scanStartedAtMs: ms,
    scanEndedAtMs: ms,
    held: z.array(z.string()),
  }),
  /** The runner named the test of a failure first seen as a bare output line (the failure at `atMs`). */
  z.object({ t: z.literal('failure-test'), atMs: ms, test: z.string() }),
  /** The output line that said what the failure at `atMs` was, after the runner's event reported it in other words. */
  z.object({ t: z.literal('failure-said'), atMs: ms, text: z.string(), path: z.string().nullable(), kind: z.string(), code: z.number().nullable() }),
  z.object({ t: z.literal('leftovers'), leftovers: z.array(LeftoverRecordSchema) }),
  /** Open-time and spawn-time stacks per holder key, matched from the probes' logs at the end. */
  z.object({ t: z.literal('stacks'), byKey: z.record(z.string(), HolderStacksSchema) }),
  /**
   * A holding no scan saw: the probe inside the process wrote it still open at its test's end, and the
   * process was gone before a scan (found in the probes' logs at the end). `atMs` is the open,
   * `heldUntilMs` the last moment the probe saw it open.
   */
  z.object({
    t: z.literal('probe-held'),
    atMs: ms,
    heldUntilMs: ms,
    key: z.string(),
    holder: HolderSchema,
    member: MemberFactsSchema,
    stacks: HolderStacksSchema,
  }),
  /**
   * A resource the code never closed, closed by the runtime's finalizer at `atMs` (found in the probes'
   * logs at the end). `key` is the holder a scan saw for it; a close no scan saw (opened and finalized
   * between two polls) brings its own holder, membership and stacks, as probe-held does. `open` is the
   * probe's record of the very open the finalizer closed: for a scan-seen holder it replaces the stack
   * matched at the scan's date (a scan that read the fd as the collector closed it is dated after the
   * close, and no open is open then).
   */
  z.object({
    t: z.literal('gc-closed'),
    atMs: ms,
    openedAtMs: ms,
    key: z.string(),
    closedDuring: z.string().nullable(),
    resource: z.enum(GC_RESOURCES),
    api: z.string(),
    open: StackLookupSchema.optional(),
    unseen: z.object({ holder: HolderSchema, member: MemberFactsSchema, stacks: HolderStacksSchema }).optional(),
  }),
  /**
   * A step of finishing begins (the final scan, listing leftovers, matching stacks). A journal that
   * ends after one without a run-end names where holdwatch stopped, whatever reached stderr.
   */
  z.object({ t: z.literal('stage'), atMs: ms, stage: z.string() }),
  /**
   * The test command's own process exited (`holdwatch run`); its descendants may live on. A holder seen
   * by a scan begun after this was held by a process that outlived the command.
   */
  z.object({ t: z.literal('command-exit'), atMs: ms, exitCode: z.number().nullable() }),
  /** Closes the run; `lastSeen` gives the final sighting of the holders still alive. */
  z.object({ t: z.literal('run-end'), atMs: ms, exitCode: z.number().nullable(), lastSeen: z.record(z.string(), ms) }),
]);
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** The entries that match; `rejected` counts the rest (a torn last line after a crash is one). */
export function parseJournal(lines: readonly string[]): { entries: JournalEntry[]; rejected: number } {
  const entries: JournalEntry[] = [];
  let rejected = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      rejected++;
      continue;
    }
    const parsed = JournalEntrySchema.safeParse(value);
    if (parsed.success) entries.push(parsed.data);
    else rejected++;
  }
  return { entries, rejected };
}
