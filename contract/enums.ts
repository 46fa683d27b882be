// The contract's closed sets of words, as plain arrays: zod-free, so the scan path (native's codecs,
// core's ordering) uses them without loading zod; the schemas build their enums from these.

export const PLATFORMS = ['linux', 'win32', 'darwin'] as const;

/** How a process holds a path. `mmap` is Linux's mapped file; `module` a DLL/EXE image on Windows. */
export const HOLDER_KINDS = ['file', 'dir', 'cwd', 'root', 'exe', 'mmap', 'module'] as const;

export const TEST_OUTCOMES = ['passed', 'failed', 'skipped', 'error'] as const;
export const TEST_PHASES = ['setup', 'call', 'teardown'] as const;
export const TEST_EVENT_TYPES = ['run-start', 'test-start', 'phase', 'test-end', 'run-end'] as const;

export const VERDICTS = ['blocked-cleanup', 'leaked-past-test', 'outside-run', 'in-run'] as const;
