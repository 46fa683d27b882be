// The names of one scan's handle entries: the cache's for handles it knows, the name worker's for the
// rest, asked in one batch in the order that keeps a stall from costing the others (naming-order.ts).
import type { HandleEntry } from './handle-table.js';
import type { CachedName, NameCache, RecheckPolicy } from './name-cache.js';
import type { NameOutcome } from './name-worker-client.js';
import { namingOrder } from './naming-order.js';
import type { ProcessIdentity } from './process-identities.js';

export interface EntryNaming {
  cache: NameCache;
  /** The process behind a pid, as this scan knows it; a denied one refuses DUP_HANDLE too. */
  identityOf: (pid: number) => ProcessIdentity | undefined;
  /** Names entries with the worker, after whatever is asking it now. */
  ask: (entries: readonly HandleEntry[]) => Promise<NameOutcome[]>;
}

/** Each entry's name (undefined for a denied process's), and how many the worker was asked for. */
export async function nameEntries(
  entries: readonly HandleEntry[],
  nowMs: number,
  policyOf: (pid: number) => RecheckPolicy,
  { cache, identityOf, ask }: EntryNaming,
): Promise<{ named: (CachedName | undefined)[]; asked: number }> {
  cache.beginScan();
  const named = new Array<CachedName | undefined>(entries.length);
  const missing: number[] = [];
  let lastPid = -1;
  let lastIdentity: ProcessIdentity | undefined;
  let policy: RecheckPolicy | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.pid !== lastPid) {
      lastPid = entry.pid;
      lastIdentity = identityOf(entry.pid);
      policy = policyOf(entry.pid);
    }
    // A process that refused even QUERY_LIMITED refuses DUP_HANDLE too: it is in `denied` already.
    if (!lastIdentity || lastIdentity.denied) continue;
    const cached = cache.lookup(entry, nowMs, policy!);
    if (cached) named[i] = cached;
    else missing.push(i);
  }
  if (missing.length === 0) return { named, asked: 0 };
  const order = namingOrder(entries, missing);
  const answers = await ask(order.map((i) => entries[i]!));
  order.forEach((entryIndex, j) => {
    const outcome = answers[j]!;
    // A handle that stalled stays unnamed (asking again would hang again) until it is due a
    // re-check; one the scan's deadline never reached is asked next time.
    if (outcome.kind === 'unnamed' && !outcome.stalled) {
      named[entryIndex] = { object: 0n, access: 0, outcome, disk: false, provenAtMs: nowMs, seen: -1 };
      return;
    }
    named[entryIndex] = cache.storeAnswer(entries[entryIndex]!, outcome, nowMs);
  });
  return { named, asked: missing.length };
}
