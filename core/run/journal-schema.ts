// A journal read back from disk (`holdwatch report`) is input from outside: every entry is checked
// against this schema; one that does not match is skipped and counted, never trusted.
import { z } from 'zod';
import type { JournalEntry } from './journal-entries.js';
import { AncestryEntrySchema, HolderSchema, TestEventSchema } from '../api-contract.js';

const ms = z.number().finite();
const TestHintSchema = z.union([
  z.object({ runner: z.literal('pytest'), nodeId: z.string(), phase: z.string() }),
  z.object({ runner: z.literal('bats'), number: z.number().int().positive() }),
]);
const MemberSchema = z.object({ ancestry: z.array(AncestryEntrySchema), byTagOnly: z.boolean(), testHint: TestHintSchema.optional() }).nullable();
// Stacks are shown, never acted on; their inner shape is checked where the record is (api-contract).
const LookupSchema = z.union([z.object({ found: z.literal(true) }).passthrough(), z.object({ found: z.literal(false), reason: z.string() })]);

export const JournalEntrySchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('run-start'),
    runId: z.string(),
    command: z.array(z.string()),
    cwd: z.string(),
    watched: z.array(z.string()),
    platform: z.enum(['linux', 'win32', 'darwin']),
    atMs: ms,
    versions: z.object({ holdwatch: z.string(), node: z.string(), os: z.string() }),
  }),
  z.object({ t: z.literal('test'), event: TestEventSchema }),
  z.object({ t: z.literal('appeared'), atMs: ms, scanStartedAtMs: ms.optional(), key: z.string(), holder: HolderSchema, member: MemberSchema }),
  z.object({ t: z.literal('gone'), atMs: ms, key: z.string(), lastSeenAtMs: ms }),
  z.object({
    t: z.literal('failure'),
    atMs: ms,
    scannedAtMs: ms.optional(),
    text: z.string(),
    path: z.string().nullable(),
    kind: z.string(),
    code: z.number().nullable(),
    holderKeys: z.array(z.string()),
    test: z.string().nullable().optional(),
  }),
  z.object({ t: z.literal('failure-test'), atMs: ms, test: z.string() }),
  z.object({ t: z.literal('leftovers'), leftovers: z.array(z.object({ path: z.string(), createdDuring: z.string().nullable() })) }),
  z.object({ t: z.literal('stacks'), byKey: z.record(z.string(), z.object({ open: LookupSchema, spawn: LookupSchema })) }),
  z.object({ t: z.literal('run-end'), atMs: ms, exitCode: z.number().nullable(), lastSeen: z.record(z.string(), ms) }),
]);

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
    if (parsed.success) entries.push(parsed.data as JournalEntry);
    else rejected++;
  }
  return { entries, rejected };
}
