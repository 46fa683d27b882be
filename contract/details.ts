// Process details: what the details panel reads fresh for one selected holder (getProcessDetails).
import { z } from 'zod';
import { AncestryEntrySchema, HandleAccessSchema, HolderKindSchema, ProcessInfoSchema } from './holders.js';
import { pid } from './primitives.js';

export const RunMembershipSchema = z.object({
  runId: z.string(),
  /** The test it was spawned during (the runner's hint, else the test running at its start). */
  spawnedDuring: z.string().nullable(),
  /** True when only its HOLDWATCH_RUN tag ties it to the run (its parent chain was already broken). */
  byTagOnly: z.boolean(),
  /** From this process up to the run's command, as recorded when the run first saw it. */
  ancestry: z.array(AncestryEntrySchema),
});
export type RunMembershipDto = z.infer<typeof RunMembershipSchema>;

/** One thing a process holds, as the details panel shows it. */
export const HoldingDetailSchema = z.object({
  kind: HolderKindSchema,
  path: z.string(),
  /** The watched dir it lies under (display form). */
  watchedDir: z.string(),
  deleted: z.boolean(),
  handle: z.string().nullable(),
  /** null for rows without a handle (mmap, exe, module; cwd on Linux) or when it could not be read. */
  access: HandleAccessSchema.nullable(),
  /** Advisory locks on it held through this handle (Linux fdinfo `lock:` lines): `FLOCK ADVISORY WRITE`. */
  locks: z.array(z.string()),
  /** Windows share mode (`FILE_SHARE_READ`...); null when it cannot be known, and `shareUnknownReason` says why. */
  share: z.array(z.string()).nullable(),
  shareUnknownReason: z.string().nullable(),
});
export type HoldingDetail = z.infer<typeof HoldingDetailSchema>;

export const ProcessDetailsSchema = z.object({
  process: ProcessInfoSchema,
  /** From the parent up to PID 1, as alive now (a reparented process shows its new parent). */
  ancestry: z.array(AncestryEntrySchema),
  /** Why holdwatch will not end it (itself, a system process); null when it may. */
  endRefusal: z.string().nullable(),
  /** Why holdwatch will not close a handle of it (Linux, holdwatch itself, a system process); null when it offers to; absent from older hosts. */
  closeRefusal: z.string().nullable().optional(),
  /** Its current directory; null when unreadable, with `cwdUnreadableReason` saying why. */
  cwd: z.string().nullable(),
  cwdUnreadableReason: z.string().nullable(),
  /** HOLDWATCH_RUN in its environment (the run that tagged it); null when absent or unreadable. */
  environmentTag: z.string().nullable(),
  /** Live children now. */
  children: z.array(z.object({ pid, name: z.string(), startedAtMs: z.number() })),
  /** Every handle it has open (Linux: fds; Windows: all object types); null when unreadable. */
  handleCount: z.number().int().nonnegative().nullable(),
  /** Its place in a run of this session; null when it belongs to none. */
  run: RunMembershipSchema.nullable(),
  /** What it holds under the watched dirs of this session (every watch and run), with access. */
  holdings: z.array(HoldingDetailSchema),
});
export type ProcessDetails = z.infer<typeof ProcessDetailsSchema>;
