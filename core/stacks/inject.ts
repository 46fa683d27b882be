// The environment that injects both probes, computed from the user's own values: appended to,
// never replaced (their PYTHONPATH entries and NODE_OPTIONS keep working).

export interface ProbeInjection {
  /** Directory the probes write to (outside every watched directory). */
  logDir: string;
  /** Absolute path of probes/python (holds sitecustomize.py). */
  pythonProbeDir: string;
  /** Absolute path of probes/node/preload.cjs. */
  nodePreload: string;
  /** The test command's environment as it would be without the probes. */
  env: Readonly<Record<string, string | undefined>>;
  /** `:` on POSIX, `;` on Windows. */
  pathDelimiter: string;
}

/**
 * The variables to set on the test command (only these; everything else stays as it is). The Python
 * probe's finalizer watch (files the garbage collector closed, not the code) is on in `holdwatch
 * run`; the user's own HOLDWATCH_GC_WATCH (0 turns it off) is kept.
 */
export function probeEnvironment(input: ProbeInjection): Record<string, string> {
  const pythonPath = input.env.PYTHONPATH;
  const nodeOptions = input.env.NODE_OPTIONS;
  // NODE_OPTIONS splits on spaces unless the value is double-quoted (a path with spaces).
  const preload = `--require ${JSON.stringify(input.nodePreload)}`;
  return {
    HOLDWATCH_PROBE_LOG: input.logDir,
    PYTHONPATH: pythonPath ? `${input.pythonProbeDir}${input.pathDelimiter}${pythonPath}` : input.pythonProbeDir,
    NODE_OPTIONS: nodeOptions ? `${nodeOptions} ${preload}` : preload,
    ...(input.env.HOLDWATCH_GC_WATCH === undefined ? { HOLDWATCH_GC_WATCH: '1' } : {}),
  };
}
