// The contract's closed sets of words, as plain arrays: zod-free, so the scan path (native's codecs,
// core's ordering) uses them without loading zod; the schemas build their enums from these.

/** What a finalizer closed that the code never did (probe-log's gc-close records). */
export const GC_RESOURCES = ['file', 'sqlite'] as const;

export const PLATFORMS = ['linux', 'win32', 'darwin'] as const;

/** How a process holds a path. `mmap` is Linux's mapped file; `module` a DLL/EXE image on Windows. */
export const HOLDER_KINDS = ['file', 'dir', 'cwd', 'root', 'exe', 'mmap', 'module'] as const;

/**
 * What happened to a holding between two scans: first seen, no longer seen, or held on by a process
 * that changed what it is (exec: its name and command line), which is the same holding, not a new one.
 */
export const HOLDER_CHANGES = ['appeared', 'gone', 'changed'] as const;

export const TEST_OUTCOMES = ['passed', 'failed', 'skipped', 'error'] as const;
export const TEST_PHASES = ['setup', 'call', 'teardown'] as const;
export const TEST_EVENT_TYPES = ['run-start', 'test-start', 'phase', 'test-end', 'run-end'] as const;

/**
 * `closed-by-gc`: a file (or sqlite connection) the code never closed, which the runtime's finalizer
 * closed inside its test. CPython closes it the moment its last reference drops, so nothing fails
 * here; where finalisation is deferred (PyPy), or a collection comes late, it stays open past the
 * test, and on Windows the teardown's delete fails.
 */
export const VERDICTS = ['blocked-cleanup', 'leaked-past-test', 'outlived-run', 'closed-by-gc', 'outside-run', 'in-run'] as const;

/**
 * The scope an open belongs to, narrowest first: the test running at the open, else the suite or class
 * whose setup ran it (beforeAll, setUpClass, a class fixture), the file or module (a module fixture,
 * import time), the whole session. An open must be closed by the end of its scope.
 */
export const SCOPE_KINDS = ['test', 'suite', 'file', 'session'] as const;

/**
 * What a verdict, or the test that opened a handle, rests on; strongest first.
 * - probe-open: a probe's record of the open, made in that process with the test in progress there
 * - probe-finalizer: the probe saw the runtime's finalizer close it (the code never did), and when
 * - self-inventory: the test process listed its own handles at the scope's start and end (/proc/self/fd,
 *   ProcessHandleInformation on itself): held at the end and not at the start, opened in that scope
 * - syscall-ledger: the process's own opens, closes and test-end writes in one total order (strace,
 *   seccomp-filtered), for code no probe sees (Go, C, native addons)
 * - deleted-while-held: a run process deleted or renamed a path a run process held (on Windows that fails)
 * - test-boundary: the scan at a test's end, which the test process waited for
 * - boundary-unconfirmed: the test process went on before the scan at its test's end was done (the
 *   wait timed out, or it was behind and did not wait): that scan did not see the holding, which says
 *   nothing of whether it was held when the test ended
 * - exit-stop: the scan while the test process was stopped at its exit, all its files still open
 *   (a Go test binary under holdwatch's -exec program): held then, held past every test of it
 * - test-temp-dir: the file lies in a temp dir named after the test (Go's t.TempDir())
 * - failure-scan: the scan a teardown-failure line triggered, at that moment
 * - process-tree: whether the holding process belongs to the run (its ancestry, its run tag)
 * - poll: sightings by the periodic scans, placed on the runner's timeline
 */
export const EVIDENCE = [
  'probe-open',
  'probe-finalizer',
  'self-inventory',
  'syscall-ledger',
  'deleted-while-held',
  'test-boundary',
  'boundary-unconfirmed',
  'exit-stop',
  'test-temp-dir',
  'failure-scan',
  'process-tree',
  'poll',
] as const;
