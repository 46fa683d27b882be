// What checking 100,000 watch events against the contract costs the receiving side, as a page pays
// it: zod jitless (the page's CSP forbids eval, so zod cannot compile itself there), JSON parsed from
// the wire. Per event: one message per holder, each parsed and checked alone (how the events used to
// travel). Per batch: the messages subscribeAll cuts a poll into (columns, contract/watch-columns.ts),
// checked by parseServiceEvent and rebuilt into events, as a page receives them.
import { z } from 'zod';
import { WatchEventSchema, type WatchEvent } from '../contract/holders.js';
import { parseServiceEvent, subscribeAll, watchEventsOf } from '../contract/service-client.js';
import type { ServiceEvent } from '../contract/service.js';
import { pollingService } from '../contract/polling-service.fixture.js';
import { median } from './stats.js';
import { ms1 } from './ui-browser.js';

const ROUNDS = 5;

function pollOf(count: number): WatchEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    type: 'appeared' as const,
    at: '2026-01-01T00:00:00.000Z',
    holder: {
      pid: 1000 + (i % 6),
      ppid: 1,
      processStartedAtMs: 1_767_225_600_000,
      processName: 'python3',
      commandLine: '/usr/bin/python3 holder.py files /tmp/holdwatch-bench/tree/p000',
      user: 'root',
      kind: 'file' as const,
      path: `/tmp/holdwatch-bench/tree/p00${i % 6}/f${i}.dat`,
      deleted: false,
      handle: `fd ${i}`,
      watchedDir: '/tmp/holdwatch-bench/tree',
      access: { rights: ['read' as const], flags: 'O_RDONLY', raw: '0100000' },
    },
  }));
}

/** The wire text of one poll, as subscribeAll sends it. */
function batchMessages(poll: WatchEvent[]): string[] {
  const { service, emitPoll } = pollingService();
  const sent: ServiceEvent[] = [];
  subscribeAll(service, (e) => sent.push(e));
  emitPoll('w1', poll);
  return sent.map((event) => JSON.stringify({ event }));
}

const received = (event: ServiceEvent) => (event.channel === 'watch' ? watchEventsOf(event.columns) : []);

export function benchValidationCost(count: number): void {
  z.config({ jitless: true });
  const poll = pollOf(count);
  const singleSchema = z.object({ channel: z.literal('watch'), watchId: z.string(), event: WatchEventSchema });
  const single = poll.map((event) => JSON.stringify({ event: { channel: 'watch', watchId: 'w1', event } }));
  const batches = batchMessages(poll);
  const time = (fn: () => void) => {
    const t0 = performance.now();
    fn();
    return performance.now() - t0;
  };
  const perEvent: number[] = [];
  const perBatch: number[] = [];
  const parseOnly: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    perEvent.push(time(() => single.forEach((m) => singleSchema.parse((JSON.parse(m) as { event: unknown }).event))));
    perBatch.push(time(() => batches.forEach((m) => received(parseServiceEvent((JSON.parse(m) as { event: unknown }).event)))));
    parseOnly.push(time(() => batches.forEach((m) => void JSON.parse(m))));
  }
  const bytes = (messages: string[]) => `${(messages.reduce((sum, m) => sum + Buffer.byteLength(m), 0) / 2 ** 20).toFixed(1)} MB`;
  const spread = (s: number[]) => `min ${ms1(Math.min(...s))} ms, median ${ms1(median(s))} ms, max ${ms1(Math.max(...s))} ms`;
  console.log(`\nui-volume: contract checks of ${count} watch events, JSON.parse included, zod jitless as in the page; ${ROUNDS} rounds`);
  console.log(`  per event (${count} messages, ${bytes(single)}, zod each): ${spread(perEvent)}`);
  console.log(`  per batch (${batches.length} messages of columns, ${bytes(batches)}, compiled check, events rebuilt): ${spread(perBatch)}`);
  console.log(`  of which JSON.parse alone: ${spread(parseOnly)}`);
  console.log(`  per batch / per event (medians): ${(median(perBatch) / median(perEvent)).toFixed(2)}x`);
}
