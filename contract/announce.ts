// What a run leaves for other holdwatch processes to find: the first line of a probe's announce file
// in the inbox (a test process wrote it), and the live-run marker a terminal `holdwatch run` writes
// beside its journal. Both are read by another process, so both are validated like any input.
import { z } from 'zod';

/** Which process runs the tests, where, and how it was started. */
export const AnnouncementSchema = z.object({
  type: z.literal('announce'),
  pid: z.number().int().positive(),
  cwd: z.string(),
  argv: z.array(z.string()).min(1),
  runner: z.string().optional(),
  atMs: z.number(),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

/** A listed run, with the start time that tells its holdwatch from a later process given the same pid. */
export const ListedRunSchema = z.object({
  runId: z.string().min(1),
  command: z.array(z.string()),
  cwd: z.string(),
  watched: z.array(z.string()),
  startedAt: z.string().min(1),
  pid: z.number().int().positive(),
  pidStartedAtMs: z.number().nullable(),
});
export type ListedRun = z.infer<typeof ListedRunSchema>;
