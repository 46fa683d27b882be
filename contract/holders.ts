// Holders: who holds what under a watched directory, as `scan --json`, `watch --json`, the scanner
// worker and the service carry them. The schemas are the source; each type is derived from its schema.
import { z } from 'zod';
import { HOLDER_CHANGES, HOLDER_KINDS, PLATFORMS } from './enums.js';
import { iso, pid } from './primitives.js';

export const PlatformNameSchema = z.enum(PLATFORMS);
export type PlatformName = z.infer<typeof PlatformNameSchema>;

export const HolderKindSchema = z.enum(HOLDER_KINDS);
/** How a process holds a path. `mmap`: a file mapped as a data view (Linux mmap, Windows MapViewOfFile), no handle needed; `module` a DLL/EXE image on Windows. */
export type HolderKind = z.infer<typeof HolderKindSchema>;

/** What a handle may do to its file: Windows DELETE access counts as `delete`. */
export const AccessRightSchema = z.enum(['read', 'write', 'delete']);
export type AccessRight = z.infer<typeof AccessRightSchema>;

/** How a handle was opened, as the OS records it. */
export const HandleAccessSchema = z.object({
  /**
   * Read, write, delete, in that order, as share checks count them (Windows execute/traverse is read);
   * empty for a handle that only names the file (Linux O_PATH, Windows attributes-only access).
   */
  rights: z.array(AccessRightSchema),
  /** The OS's own words: `O_WRONLY | O_APPEND | O_CLOEXEC` (Linux), `FILE_GENERIC_READ | DELETE` (Windows). */
  flags: z.string(),
  /** The raw value: fdinfo's octal `flags:` (`02100001`), GrantedAccess in hex (`0x0012019f`). */
  raw: z.string(),
});
export type HandleAccess = z.infer<typeof HandleAccessSchema>;

/** A process as seen when first met. Identity is (pid, startedAtMs): pids are reused. */
export const ProcessInfoSchema = z.object({
  pid,
  ppid: pid,
  /** Process creation time, milliseconds since the Unix epoch. */
  startedAtMs: z.number(),
  name: z.string(),
  /** Image path, or null when it cannot be read (kernel threads, access denied). */
  exe: z.string().nullable(),
  commandLine: z.string(),
  /** User name where it can be resolved, else the numeric id or SID as text; null when unknown. */
  user: z.string().nullable(),
});
export type ProcessInfo = z.infer<typeof ProcessInfoSchema>;

/** One process holding one path under a watched directory. */
export const HolderSchema = z.object({
  pid,
  ppid: pid,
  /** With pid, the process identity (pids are reused). */
  processStartedAtMs: z.number(),
  processName: z.string(),
  commandLine: z.string(),
  user: z.string().nullable(),
  kind: HolderKindSchema,
  /** Absolute display path (DOS form on Windows). */
  path: z.string(),
  /**
   * The path's bytes in base64, only where they are not valid UTF-8 (a Linux name is any bytes but
   * `/` and NUL): `path` shows U+FFFD in their place, so this is what names the file.
   */
  pathBytesBase64: z.string().optional(),
  /** The path was unlinked while open (Linux `(deleted)`, Windows delete-pending). */
  deleted: z.boolean(),
  /** The handle itself: `fd 7` on Linux, `0x1a4` on Windows, null for cwd/root/exe/mmap/module rows. */
  handle: z.string().nullable(),
  /** Which watched directory this path is under (its display form), for multi-dir watches. */
  watchedDir: z.string(),
  /**
   * How the handle was opened, where the backend reads it during the scan (rows with a handle).
   * Linux scans give the access mode only (O_RDONLY...); getProcessDetails reads the full flags.
   */
  access: HandleAccessSchema.optional(),
});
export type Holder = z.infer<typeof HolderSchema>;

export const DeniedProcessSchema = z.object({
  pid,
  name: z.string(),
  /** Short reason, e.g. `EACCES reading /proc/1234/fd`. */
  reason: z.string(),
  /** Windows protects it (a protected process: Defender, csrss, System): no scan may open it, elevated or not. */
  protected: z.boolean().optional(),
});
export type DeniedProcess = z.infer<typeof DeniedProcessSchema>;

/** Handles that exist but could not be named in time (a stalled query on Windows). Never dropped silently. */
export const UnnamedHandlesSchema = z.object({ pid, name: z.string(), count: z.number(), reason: z.string() });
export type UnnamedHandles = z.infer<typeof UnnamedHandlesSchema>;

export const ScanStatsSchema = z.object({ processes: z.number(), handles: z.number(), ms: z.number() });
export type ScanStats = z.infer<typeof ScanStatsSchema>;

/** `holdwatch scan --json` prints exactly this. */
export const SnapshotSchema = z.object({
  dir: z.string(),
  platform: PlatformNameSchema,
  /** ISO 8601. */
  scannedAt: iso,
  holders: z.array(HolderSchema),
  denied: z.array(DeniedProcessSchema),
  unnamed: z.array(UnnamedHandlesSchema).optional(),
  stats: ScanStatsSchema,
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** `holdwatch watch --json` prints one of these per line; `changed` carries the row as it is now. */
export const WatchEventSchema = z.object({
  type: z.enum(HOLDER_CHANGES),
  /** ISO 8601. */
  at: iso,
  holder: HolderSchema,
});
export type WatchEvent = z.infer<typeof WatchEventSchema>;

/**
 * One step of a process's parent chain. `gapBelow`: this is not the parent of the entry before it but
 * an ancestor further up; the processes between exited before holdwatch listed them (a detached
 * writer whose parent left at once), and the chain resumes at the test process its runner's
 * environment names.
 */
export const AncestryEntrySchema = z.object({ pid, name: z.string(), commandLine: z.string(), gapBelow: z.literal(true).optional() });
export type AncestryEntry = z.infer<typeof AncestryEntrySchema>;
