// How long `holdwatch run` goes on following the run's processes that outlive the command, while one
// still holds something under the watched dirs: a detached child often opens or keeps its file for
// seconds after the suite exits. Its own module: the CLI's help says it without loading the supervisor.
export const DEFAULT_GRACE_MS = 3000;
