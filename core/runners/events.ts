// Runner stream parsing: every runner's output becomes the contract's TestEvent (contract/runs.ts).
// A probe's event is validated by hand here, not by TestEventSchema: the run's start-up path loads no zod
// (probe-events.test.ts holds the two to the same answers).

import type { TestEvent, TestEventType, TestOutcome, TestPhase } from '../../contract/runs.js';

export type { TestEvent, TestOutcome };

/** A line of the command's human output, decoded (go -json wraps it in JSON), with its test when known. */
export interface OutputLine {
  text: string;
  test?: string;
}

export interface ParsedOutput {
  events: TestEvent[];
  lines: OutputLine[];
}

/** Incremental: chunks may split lines anywhere; everything complete so far is returned at once. */
export interface RunnerStreamParser {
  push(chunk: string): ParsedOutput;
  /** The stream closed; `exitCode` (when known) decides the run's outcome if the stream did not. */
  end(exitCode?: number | null): ParsedOutput;
}

const TYPES: ReadonlySet<string> = new Set<TestEventType>(['run-start', 'test-start', 'phase', 'test-end', 'run-end']);
export const PHASES: ReadonlySet<unknown> = new Set<TestPhase>(['setup', 'call', 'teardown']);
export const OUTCOMES: ReadonlySet<unknown> = new Set<TestOutcome>(['passed', 'failed', 'skipped', 'error']);

/** Validates an event from outside (a probe's JSON line): the receiving side never trusts the sender. */
export function toTestEvent(value: unknown): TestEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.type !== 'string' || !TYPES.has(v.type)) return undefined;
  if (typeof v.name !== 'string' || typeof v.atMs !== 'number' || !Number.isFinite(v.atMs)) return undefined;
  if (v.phase !== undefined && (typeof v.phase !== 'string' || !PHASES.has(v.phase))) return undefined;
  if (v.outcome !== undefined && (typeof v.outcome !== 'string' || !OUTCOMES.has(v.outcome))) return undefined;
  if (v.detail !== undefined && typeof v.detail !== 'string') return undefined;
  if (v.inTestProcess !== undefined && typeof v.inTestProcess !== 'boolean') return undefined;
  const event: TestEvent = { type: v.type as TestEventType, name: v.name, atMs: v.atMs };
  if (v.phase !== undefined) event.phase = v.phase as TestPhase;
  if (v.outcome !== undefined) event.outcome = v.outcome as TestOutcome;
  if (v.detail !== undefined) event.detail = v.detail;
  if (v.inTestProcess !== undefined) event.inTestProcess = v.inTestProcess;
  return event;
}
