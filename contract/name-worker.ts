// The Windows name worker's messages (JSON lines over stdio; native/win32/name-worker-client.ts). The
// app validates what the worker sends: the worker is another process that may be killed mid-line,
// restarted, or (elevated later) run with other rights, so its output is input, not trusted data.
import { z } from 'zod';

/** One handle to name: `handle` is the remote handle value in decimal (BigInt does not survive JSON). */
export const NameItemSchema = z.object({ pid: z.number().int().nonnegative(), handle: z.string().regex(/^\d+$/) });
export type NameItem = z.infer<typeof NameItemSchema>;

export const NameRequestSchema = z.object({
  type: z.literal('names'),
  id: z.number().int(),
  items: z.array(NameItemSchema),
  /** Processes alive when the batch was made, with create times: a pid reused since is not asked. */
  live: z.array(z.object({ pid: z.number().int(), createTime: z.string() })),
});
export type NameRequest = z.infer<typeof NameRequestSchema>;

export const NamedSchema = z.object({
  type: z.literal('named'),
  id: z.number().int(),
  index: z.number().int().nonnegative(),
  /** Kernel object name (`\Device\HarddiskVolume3\x`, `\??\Z:\x` on Wine); null when it has none. */
  name: z.string().nullable(),
  /**
   * The granted access of the copy the worker named: the rights of whatever handle held the value when
   * it was duplicated, which may not be the one the table row described (values are reused).
   */
  access: z.number().int().nonnegative().optional(),
  directory: z.boolean(),
  deletePending: z.boolean(),
  /** Set when the handle could not be named (process gone, access denied). */
  error: z.object({ api: z.string(), code: z.union([z.number(), z.string()]), denied: z.boolean() }).optional(),
  /** The name query passed the worker's own deadline (the pipe hang): no name; the worker goes on. */
  stalled: z.boolean().optional(),
  /** Named, but the second query (directory, delete-pending) passed the deadline: those are not known. */
  infoStalled: z.boolean().optional(),
});
export type Named = z.infer<typeof NamedSchema>;

export const WorkerMessageSchema = z.discriminatedUnion('type', [
  NamedSchema,
  z.object({ type: z.literal('ready'), pid: z.number().int() }),
  z.object({ type: z.literal('done'), id: z.number().int() }),
  z.object({ type: z.literal('fatal'), message: z.string() }),
  /** Out of query threads (each hang keeps one): the items from `next` on were not asked; start another worker. */
  z.object({ type: z.literal('retire'), id: z.number().int(), next: z.number().int().nonnegative() }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessageSchema>;
