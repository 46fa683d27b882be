// What one tool's timing produced: the samples and the PIDs it reported (null when it reports none).
export interface Measurement {
  tool: string;
  samplesMs: number[];
  /** CPU time per sample, all threads together, where it can be measured exactly (in-process, the C floor). */
  cpuSamplesMs?: number[];
  pids: Set<number> | null;
  /** Why the tool could not be measured, or a caveat the table should show. */
  note?: string;
}
