// What the Windows dump writer (native/win32/dump-writer.ts, a detached child of `holdwatch stack`)
// says on stdout when it ends: one JSON line. The parent validates it: the writer is another process.
import { z } from 'zod';

export const DumpWriterOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('written'), bytes: z.number().int().nonnegative() }),
  /** No process has the pid, or it is not the one that started at the given time. */
  z.object({ kind: z.literal('gone'), message: z.string() }),
  /** OpenProcess refused read and query access. */
  z.object({ kind: z.literal('denied'), message: z.string() }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
]);
export type DumpWriterOutcome = z.infer<typeof DumpWriterOutcomeSchema>;
