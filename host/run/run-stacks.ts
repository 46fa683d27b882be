// At the end of a run: reads the probes' logs and pairs each holder with the code that opened it and
// the code that started its process.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttributedHolder } from '../../contract/runs.js';
import type { HolderStacks } from '../../contract/journal.js';
import { indexProbeRecords, matchOpenStack, matchSpawnStack, parseProbeLog, type ProbeRecord } from '../../core/stacks/index.js';

export function readProbeRecords(logDir: string): ProbeRecord[] {
  let names: string[];
  try {
    names = readdirSync(logDir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return []; // no probed process ran
  }
  return names.flatMap((name) => parseProbeLog(readFileSync(join(logDir, name), 'utf8')).records);
}

export async function matchRunStacks(logDir: string, holders: { key: string; holder: AttributedHolder }[]): Promise<Record<string, HolderStacks>> {
  const index = indexProbeRecords(readProbeRecords(logDir));
  const byKey: Record<string, HolderStacks> = {};
  for (const { key, holder } of holders) {
    const ancestorPids = holder.attribution.ancestry.slice(1).map((a) => a.pid);
    byKey[key] = {
      open: matchOpenStack(
        {
          pid: holder.pid,
          processStartedAtMs: holder.processStartedAtMs,
          kind: holder.kind,
          path: holder.path,
          handle: holder.handle,
          firstSeenAtMs: Date.parse(holder.attribution.firstSeenAt),
          ancestorPids,
        },
        index,
      ),
      spawn: matchSpawnStack(
        { pid: holder.pid, ppid: holder.ppid, startedAtMs: holder.processStartedAtMs, commandLine: holder.commandLine, ancestorPids },
        index,
      ),
    };
  }
  return byKey;
}
