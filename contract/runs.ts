// Runs (`holdwatch run`, a run started from the UI, `attach`): the test events, the record a run
// leaves (as `--json` writes it and reports read it), and the events a front end receives while it goes.
import { z } from 'zod';
import { EVIDENCE, GC_RESOURCES, HOLDER_CHANGES, SCOPE_KINDS, TEST_EVENT_TYPES, TEST_OUTCOMES, TEST_PHASES, VERDICTS } from './enums.js';
import { AncestryEntrySchema, HolderSchema, PlatformNameSchema } from './holders.js';
import { id, iso, pid } from './primitives.js';
import { DeletedBySchema, StackLookupSchema } from './stacks.js';

export const TestOutcomeSchema = z.enum(TEST_OUTCOMES);
export type TestOutcome = z.infer<typeof TestOutcomeSchema>;
export const TestPhaseSchema = z.enum(TEST_PHASES);
export type TestPhase = z.infer<typeof TestPhaseSchema>;
export const TestEventTypeSchema = z.enum(TEST_EVENT_TYPES);
export type TestEventType = z.infer<typeof TestEventTypeSchema>;

/**
 * One moment of a run, as runner adapters and the bundled probes report it. A `phase` event without
 * `outcome` marks the phase starting; with `outcome`, the phase ending (pytest's setup/call/teardown).
 * `error` is a failure outside the test body (a fixture, a hook, a cleanup), the case holdwatch exists for.
 */
export const TestEventSchema = z.object({
  type: TestEventTypeSchema,
  /** The test's full name (`file::Class::test`, `pkg.TestX/sub`, `group > test`); the runner's for run-*. */
  name: z.string(),
  phase: TestPhaseSchema.optional(),
  outcome: TestOutcomeSchema.optional(),
  /** Milliseconds since the Unix epoch: the runner's own timestamp where it gives one. */
  atMs: z.number(),
  /** First line of the failure message, when the runner gives one. */
  detail: z.string().optional(),
  /**
   * Stamped by the test's own process at the moment it describes (the pytest and unittest plugins, the
   * Node probe): no delay between the moment and its stamp. Else read from output, and stamped late.
   */
  inTestProcess: z.boolean().optional(),
});
export type TestEvent = z.infer<typeof TestEventSchema>;

export const TestRecordSchema = z.object({
  name: z.string(),
  /** ISO 8601. */
  startedAt: iso,
  endedAt: iso.nullable(),
  outcome: TestOutcomeSchema.nullable(),
  /** The phase that decided the outcome, where the runner says (a teardown failure says 'teardown'). */
  phase: TestPhaseSchema.optional(),
  /** Outcome per phase where the runner reports them (pytest, bats formatter). */
  phases: z.partialRecord(TestPhaseSchema, TestOutcomeSchema).optional(),
  /** When each phase ran, where the runner reports it (pytest's report start/stop); the HTML timeline draws them. */
  phaseTimes: z.partialRecord(TestPhaseSchema, z.object({ startedAt: iso, endedAt: iso })).optional(),
  /**
   * The test process went on before the scan at this test's end was done (its wait timed out, or it
   * did not wait): what that scan did not see is not known to have been let go by the end.
   */
  endUnconfirmed: z.literal(true).optional(),
});
export type TestRecord = z.infer<typeof TestRecordSchema>;

export const VerdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof VerdictSchema>;

export const EvidenceSchema = z.enum(EVIDENCE);
export type Evidence = z.infer<typeof EvidenceSchema>;

export const AttributionSchema = z.object({
  /** Test during which the holding process was spawned; null when before any test or unknown. */
  spawnedDuring: z.string().nullable(),
  /** Test during which this handle was first seen. */
  firstSeenDuring: z.string().nullable(),
  /**
   * The test during which the handle was opened, by the strongest evidence there is (a probe's record,
   * then the test-boundary scans, then the first sighting); null when before any test or unknown.
   */
  openedDuring: z.string().nullable().optional(),
  /** What openedDuring rests on. */
  openedDuringBy: EvidenceSchema.nullable().optional(),
  /**
   * Set when the open belongs to a scope wider than one test (beforeAll, a module fixture, import time):
   * the scope that had to close it. A leak then is held past the end of this scope.
   */
  scope: z.object({ kind: z.enum(SCOPE_KINDS), name: z.string() }).optional(),
  verdict: VerdictSchema,
  /** What the verdict rests on. */
  verdictBy: EvidenceSchema.optional(),
  /**
   * Set for a file no teardown deletes: the runner's own scratch (go build's work dir, bats's run dir)
   * or an anonymous temp file; says which. Reports fold these rows into one line.
   */
  scratch: z.string().optional(),
  /**
   * 'probe' for a holding no scan saw: the probe inside the process recorded it still open when its
   * test ended, and the process exited before the next scan. Absent for what a scan saw.
   */
  seenBy: z.literal('probe').optional(),
  /**
   * Set when the code never closed it: the runtime's finalizer did (refcount drop or garbage
   * collection), at `at`, while `during` ran (null: between tests). `resource` says what it was.
   */
  closedByFinalizer: z.object({ at: iso, during: z.string().nullable(), resource: z.enum(GC_RESOURCES), api: z.string() }).optional(),
  /** From the holder up to the run's command (or PID 1), as recorded when first seen. */
  ancestry: z.array(AncestryEntrySchema),
  /** ISO 8601 first and last time the handle was seen. */
  firstSeenAt: iso,
  lastSeenAt: iso,
  /** The code that opened it, where a probe recorded it (python, node), or why there is none. */
  openStack: StackLookupSchema.optional(),
  /** The code that started the holding process, where its parent was probed, or why there is none. */
  spawnStack: StackLookupSchema.optional(),
  /**
   * A probed ancestor (`pid`) deleted the path while this holder's process, its live child, held it:
   * on Windows that delete fails. (A delete by the holder's own process is `openStack.stack.deletedBy`.)
   */
  deletedBy: DeletedBySchema.optional(),
});
export type Attribution = z.infer<typeof AttributionSchema>;

/** A process holding the same thing through another row's holder: its inherited fd, its current directory. */
export const InheritingProcessSchema = z.object({ pid, processName: z.string(), processStartedAtMs: z.number() });
export type InheritingProcess = z.infer<typeof InheritingProcessSchema>;

export const AttributedHolderSchema = HolderSchema.extend({
  attribution: AttributionSchema,
  /** Descendants that hold it too, through this holder (one leak reads as one row); absent when none. */
  alsoHeldBy: z.array(InheritingProcessSchema).optional(),
});
export type AttributedHolder = z.infer<typeof AttributedHolderSchema>;

export const FailureRecordSchema = z.object({
  /** ISO 8601 moment the failure line was seen. */
  at: iso,
  /** The output line that carried the failure. */
  text: z.string(),
  /** The path the message names, when it names one. */
  path: z.string().nullable(),
  /** e.g. 'sharing-violation', 'directory-not-empty'. */
  kind: z.string(),
  /** OS error code where the message gives one (32, 145, 16, 39...). */
  code: z.number().nullable(),
  test: z.string().nullable(),
  /** What held the watched dirs in the scan taken at that moment. */
  holders: z.array(AttributedHolderSchema),
});
export type FailureRecord = z.infer<typeof FailureRecordSchema>;

export const LeftoverRecordSchema = z.object({
  path: z.string(),
  /** Where `path` is not UTF-8: its bytes, base64 (as Holder.pathBytesBase64). */
  pathBytesBase64: z.string().optional(),
  createdDuring: z.string().nullable(),
  /** With createdDuring null: the last test that had ended when it appeared (a process that outlived its test); absent before the first test, and in older journals. */
  createdAfter: z.string().optional(),
});
export type LeftoverRecord = z.infer<typeof LeftoverRecordSchema>;

export const VersionsSchema = z.object({ holdwatch: z.string(), node: z.string(), os: z.string() });

export const RunRecordSchema = z.object({
  runId: z.string(),
  command: z.array(z.string()),
  cwd: z.string(),
  watched: z.array(z.string()),
  platform: PlatformNameSchema,
  exitCode: z.number().nullable(),
  /** ISO 8601. */
  startedAt: iso,
  endedAt: iso.nullable(),
  /** ISO 8601: the test command exited (the run then follows its leftover processes); absent before that, and in older journals. */
  commandExitedAt: iso.optional(),
  /** Only for a journal without its run-end: the step of finishing holdwatch had begun when it stopped. */
  stoppedWhile: z.string().optional(),
  tests: z.array(TestRecordSchema),
  holders: z.array(AttributedHolderSchema),
  failures: z.array(FailureRecordSchema),
  leftovers: z.array(LeftoverRecordSchema),
  versions: VersionsSchema,
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** A piece of a sentence: our own words as text, machine values (paths, tests, open lines) as code. */
export const InlineSchema = z.union([z.string(), z.strictObject({ code: z.string() })]);
export type Inline = z.infer<typeof InlineSchema>;

/** A run started from a front end, as it happens. `record` is the whole record so far (throttled). */
export const RunEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('started'), command: z.array(z.string()), cwd: z.string(), watched: z.array(z.string()) }),
  z.object({ type: z.literal('test'), event: TestEventSchema }),
  z.object({ type: z.literal('holder'), change: z.enum(HOLDER_CHANGES), at: iso, holder: AttributedHolderSchema }),
  z.object({ type: z.literal('failure'), failure: FailureRecordSchema }),
  z.object({ type: z.literal('output'), stream: z.enum(['stdout', 'stderr']), text: z.string() }),
  z.object({ type: z.literal('record'), record: RunRecordSchema }),
  z.object({
    type: z.literal('ended'),
    exitCode: z.number().nullable(),
    record: RunRecordSchema.nullable(),
    error: z.string().nullable(),
    /** The report's first line (core/report/headline.ts): the answer the run view leads with. */
    headline: z.array(InlineSchema).optional(),
  }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;

/** A run `holdwatch run` started in a terminal, still going: the UI can attach to it. */
export const ActiveRunSchema = z.object({
  runId: id,
  command: z.array(z.string()),
  cwd: z.string(),
  /** The watched directories, resolved (display form). */
  watched: z.array(z.string()),
  /** ISO 8601. */
  startedAt: iso,
  /** The `holdwatch run` process (not the test command). */
  pid,
});
export type ActiveRun = z.infer<typeof ActiveRunSchema>;
