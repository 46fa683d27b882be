// The test command's environment: the run tag that keeps every descendant attributable, the probes'
// events file and the stack probes — always added to what the user has (and what the runner table
// added to it), never replacing it.
import { delimiter } from 'node:path';
import { BOUNDARY_VARIABLE } from '../../contract/boundary.js';
import { RUN_TAG_VARIABLE } from '../../core/run/membership.js';
import { probeEnvironment } from '../../core/stacks/inject.js';
import { PROBES_DIR } from '../install-paths.js';

/** What a run tells its command's processes, through their environment. */
export interface RunChannels {
  runId: string;
  /** The probes' events file (HOLDWATCH_EVENTS). */
  eventsPath: string;
  /** Where the stack probes write (HOLDWATCH_PROBE_LOG). */
  probeLogDir: string;
  /** The test-boundary listener (HOLDWATCH_BOUNDARY), contract/boundary.ts. */
  boundary: string;
  /**
   * The watched dirs as the OS names them to a process (HOLDWATCH_WATCHED): what a probe lists of its
   * own descriptors at each scope's end.
   */
  watched: readonly string[];
}

export function runEnvironment(
  base: NodeJS.ProcessEnv,
  { runId, eventsPath, probeLogDir, boundary, watched }: RunChannels,
  stdoutIsTty: boolean,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    [RUN_TAG_VARIABLE]: runId,
    HOLDWATCH_EVENTS: eventsPath,
    [BOUNDARY_VARIABLE]: boundary,
    HOLDWATCH_WATCHED: watched.join(delimiter),
  };
  // The stack probes: Python's sitecustomize (which chains the user's) and Node's --require preload.
  Object.assign(
    env,
    probeEnvironment({
      logDir: probeLogDir,
      pythonProbeDir: PROBES_DIR + 'python',
      nodePreload: PROBES_DIR + 'node/preload.cjs',
      env,
      pathDelimiter: delimiter,
    }),
  );
  // Output now goes through a pipe: keep Python writing line by line, so a failure line reaches us
  // (and the user) when it happens, not when a 8 KiB buffer fills.
  env.PYTHONUNBUFFERED ??= '1';
  if (stdoutIsTty) {
    // The runner sees a pipe, not the user's terminal; keep its colours as they would have been.
    env.FORCE_COLOR ??= '1';
    env.PY_COLORS ??= '1';
  }
  return env;
}
