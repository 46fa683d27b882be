import { describe, expect, it } from 'vitest';
import { HolderSchema, WatchEventSchema, type Holder, type WatchEvent } from './holders.js';
import { ContractError, parseServiceEvent, subscribeAll, watchEventsOf } from './service-client.js';
import type { ServiceEvent } from './service.js';
import { pollingService } from './polling-service.fixture.js';
import { WATCH_EVENTS_PER_MESSAGE, encodeWatchColumns, type WatchColumns } from './watch-columns.js';

const AT = '2024-01-01T00:00:00.000Z';
/** Every key a holder may carry, the optional ones too. */
const full: Holder = {
  pid: 42,
  ppid: 1,
  processStartedAtMs: 1000.5,
  processName: 'python3',
  commandLine: 'python3 -m pytest',
  user: 'me',
  kind: 'mmap',
  path: '/tmp/x/\uFFFD.log',
  pathBytesBase64: 'L3RtcC94L/8ubG9n',
  deleted: true,
  handle: 'fd 3',
  watchedDir: '/tmp/x',
  access: { rights: ['read', 'write'], flags: 'O_RDWR', raw: '02' },
};
const utf8: Holder = { ...full };
delete utf8.pathBytesBase64;
const bare: Holder = { ...utf8, user: null, handle: null, deleted: false, kind: 'cwd' };
delete bare.access;

/** As a page gets it: through JSON, the compiled check and the decoding. */
const acrossTheWire = (columns: WatchColumns): WatchEvent[] => {
  const parsed = parseServiceEvent(JSON.parse(JSON.stringify({ channel: 'watch', watchId: 'w1', columns })));
  if (parsed.channel !== 'watch') throw new Error('not a watch message');
  return watchEventsOf(parsed.columns);
};
const poll = (count: number): WatchEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'appeared',
    at: AT,
    holder: { ...utf8, pid: 1000 + (i % 6), path: `/tmp/x/p${i % 6}/f${i}.dat`, handle: `fd ${i}` },
  }));

describe('watch events as columns', () => {
  it('rebuild every key of every holder as zod gives it, null and absent ones too', () => {
    const events: WatchEvent[] = [
      { type: 'appeared', at: AT, holder: full },
      { type: 'gone', at: '2024-01-01T00:00:01.000Z', holder: bare },
      { type: 'changed', at: AT, holder: { ...bare, processName: 'tail' } },
    ];
    const received = acrossTheWire(encodeWatchColumns(events));
    expect(received).toStrictEqual(events.map((e) => WatchEventSchema.parse(e)));
    // A key added to the holder's schema and not to the columns makes this fail.
    expect(Object.keys(received[0]!.holder).sort()).toEqual(Object.keys(HolderSchema.shape).sort());
  });

  it('carry each repeated string once', () => {
    const events = poll(10_000);
    const columns = encodeWatchColumns(events);
    // 10,000 paths and handles, one name, command line, user and watched dir, one access, one time.
    expect(columns.strings).toHaveLength(20_004);
    expect(columns.times).toEqual([AT]);
    expect(columns.accesses).toHaveLength(1);
    const perObject = JSON.stringify(events).length;
    expect(JSON.stringify(columns).length).toBeLessThan(perObject / 3);
  });

  it('refuse an index outside its table, and say which column', () => {
    const columns = encodeWatchColumns(poll(3));
    expect(() => acrossTheWire({ ...columns, path: [0, 1, columns.strings.length] })).toThrow(ContractError);
    expect(() => acrossTheWire({ ...columns, kind: [0, 0, 99] })).toThrow(/kind\[2\] = 99/);
    expect(() => acrossTheWire({ ...columns, access: [0, 0, 5] })).toThrow(/access\[2\]/);
    expect(() => acrossTheWire({ ...columns, type: [0, 0, 3] })).toThrow(/type\[2\]/);
    expect(() => acrossTheWire({ ...columns, user: [0, 0, -1] })).not.toThrow();
    expect(() => acrossTheWire({ ...columns, processName: [-1, 0, 0] })).toThrow(/a string\[0\] = -1/);
  });

  it('refuse columns of unequal length and values the schema does not allow', () => {
    const columns = encodeWatchColumns(poll(3));
    expect(() => acrossTheWire({ ...columns, pid: [1, 2] })).toThrow(/pid has 2 entries, not 3/);
    expect(() => acrossTheWire({ ...columns, pid: [1, 2, -3] })).toThrow(ContractError);
    expect(() => acrossTheWire({ ...columns, at: [0, 0, 0.5] })).toThrow(ContractError);
    expect(() => acrossTheWire({ ...columns, times: [''] })).toThrow(ContractError);
    expect(() => acrossTheWire({ ...columns, accesses: [{ rights: ['execute' as 'read'], flags: '', raw: '' }] })).toThrow(ContractError);
    const many = encodeWatchColumns(poll(WATCH_EVENTS_PER_MESSAGE + 1));
    expect(() => acrossTheWire(many)).toThrow(ContractError);
  });

  it('carry a poll of any size in messages the receiving side accepts, the first small, in order', () => {
    const { service, emitPoll } = pollingService();
    const sent: ServiceEvent[] = [];
    subscribeAll(service, (e) => sent.push(e));
    const events = poll(100_000);
    emitPoll('w1', events);
    const columnsOf = (m: ServiceEvent) => (m.channel === 'watch' ? [m.columns] : []);
    expect(sent.flatMap(columnsOf).map((c) => c.type.length)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 32_000, 5_000]);
    expect(
      sent
        .flatMap(columnsOf)
        .flatMap(acrossTheWire)
        .map((e) => e.holder.path),
    ).toEqual(events.map((e) => e.holder.path));
    sent.length = 0;
    const few = poll(5_000);
    emitPoll('w1', few);
    expect(sent.flatMap(columnsOf).flatMap(acrossTheWire)).toStrictEqual(few);
  });
});
