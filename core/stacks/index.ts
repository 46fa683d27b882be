// Open-time and spawn-time stacks: the line of code that opened a held file, or started the
// process that holds it. The probes (probes/python, probes/node) record calls inside the test's
// processes; this module reads their logs and pairs records with what a scan saw. Pure.
//
// API:
//   probeEnvironment(input)          -> env vars to add to the test command's environment
//   parseProbeLog(text)              -> { records, rejectedLines }   (one log file's content)
//   indexProbeRecords(records)       -> ProbeIndex                   (build once per run)
//   matchOpenStack(holder, index)    -> StackLookup (contract/stacks) holder -> the open that made it
//   matchSpawnStack(process, index)  -> StackLookup                  process -> the call that started it
//   deletedUnderChild(holder, index) -> DeletedBy | undefined        an ancestor's delete that met a child's holding
//   findProbeLeaks(index, query)     -> ProbeLeak[]                  opens held past their test that no scan saw
//   findGcCloses(index, dirOf)       -> GcClose[]                    what the runtime's finalizer closed, not the code
//   findUnseenChildHolds(index, q)   -> UnseenChildHold[]            children's holdings a delete met that no scan saw
//
// Injection (what holdwatch run does; probeEnvironment computes it):
//   HOLDWATCH_PROBE_LOG=<dir>    a directory outside every watched dir; each probed process writes
//                                <dir>/<runtime>-<pid>-<ms>.jsonl. Read every *.jsonl there.
//   PYTHONPATH=<repo>/probes/python<delimiter><the user's PYTHONPATH>   (sitecustomize chains theirs)
//   NODE_OPTIONS=<the user's NODE_OPTIONS> --require "<repo>/probes/node/preload.cjs"
// A probe that cannot write prints one line on stderr and sets HOLDWATCH_PROBE_DISABLED=1 for its
// children; the test runs on unchanged.
export { parseProbeLog } from './runtime-frames.js';
export type { ProbeRecord } from '../../contract/probe-log.js';
export { deletedUnderChild, indexProbeRecords, matchOpenStack, matchSpawnStack, NOT_PROBED } from './match.js';
export type { HolderRef, ProbeIndex } from './match.js';
export { probeEnvironment } from './inject.js';
export { findProbeLeaks, openIdentity } from './probe-leaks.js';
export { findGcCloses } from './gc-closes.js';
export { findUnseenChildHolds } from './child-holds.js';
export type { GcClose } from './gc-closes.js';
export type { ProbeLeakQuery } from './probe-leaks.js';
