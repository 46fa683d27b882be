import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileCheck, REFUSED } from './compiled-check.js';
import { WatchEventSchema } from './holders.js';
import { id } from './primitives.js';
import { WatchEventsMessageSchema } from './service.js';

/** Watch events one object each: a schema deep and wide enough to hold the closures to zod's word. */
const MOST_EVENTS = 32_000;
const EventsMessageSchema = z.object({ channel: z.literal('watch'), watchId: id, events: z.array(WatchEventSchema).min(1).max(MOST_EVENTS) });

const holder = {
  pid: 42,
  ppid: 1,
  processStartedAtMs: 1000,
  processName: 'python3',
  commandLine: 'python3 -m pytest',
  user: 'me',
  kind: 'file',
  path: '/tmp/x/a.log',
  deleted: false,
  handle: 'fd 3',
  watchedDir: '/tmp/x',
  access: { rights: ['read', 'write'], flags: 'O_RDWR', raw: '02' },
};
const event = { type: 'appeared', at: '2024-01-01T00:00:00.000Z', holder };
const message = (events: unknown[]) => ({ channel: 'watch', watchId: 'w1', events });

interface LooseHolder {
  [key: string]: unknown;
  access?: { [key: string]: unknown } | null;
}
interface LooseMessage {
  [key: string]: unknown;
  events: { [key: string]: unknown; holder: LooseHolder }[];
}

/** Each a copy of the valid message with one thing wrong (or one thing the schema allows). */
const variants: [string, (m: LooseMessage) => void][] = [
  ['as it is', () => {}],
  ['a pid as text', (m) => (m.events[0]!.holder.pid = '42')],
  ['a negative pid', (m) => (m.events[0]!.holder.pid = -1)],
  ['a fractional ppid', (m) => (m.events[0]!.holder.ppid = 1.5)],
  ['an unsafe integer pid', (m) => (m.events[0]!.holder.pid = 2 ** 60)],
  ['a kind not in the contract', (m) => (m.events[0]!.holder.kind = 'socket')],
  ['no path', (m) => delete m.events[0]!.holder.path],
  ['user null', (m) => (m.events[0]!.holder.user = null)],
  ['user missing', (m) => delete m.events[0]!.holder.user],
  ['handle a number', (m) => (m.events[0]!.holder.handle = 3)],
  ['no access (optional)', (m) => delete m.events[0]!.holder.access],
  ['access undefined', (m) => (m.events[0]!.holder.access = undefined)],
  ['access null', (m) => (m.events[0]!.holder.access = null)],
  ['a right not in the contract', (m) => (m.events[0]!.holder.access!.rights = ['execute'])],
  ['rights not an array', (m) => (m.events[0]!.holder.access!.rights = 'read')],
  ['deleted as 0', (m) => (m.events[0]!.holder.deleted = 0)],
  ['an empty at', (m) => (m.events[0]!.at = '')],
  ['a type not in the contract', (m) => (m.events[0]!.type = 'moved')],
  ['the holder an array', (m) => Object.assign(m.events[0]!, { holder: [] })],
  ['an event null', (m) => Object.assign(m.events, { 0: null })],
  ['an extra key (stripped)', (m) => (m.events[0]!.holder.extra = { huge: true })],
  ['no events', (m) => (m.events = [])],
  ['events not an array', (m) => Object.assign(m, { events: { 0: event } })],
  ['an empty watchId', (m) => (m.watchId = '')],
  ['a watchId too long', (m) => (m.watchId = 'w'.repeat(201))],
  ['the wrong channel', (m) => (m.channel = 'watch-status')],
  ['processStartedAtMs not finite', (m) => (m.events[0]!.holder.processStartedAtMs = Infinity)],
  ['processStartedAtMs NaN', (m) => (m.events[0]!.holder.processStartedAtMs = NaN)],
];

describe('compileCheck', () => {
  const compiled = compileCheck(EventsMessageSchema);
  it.each(variants)('agrees with zod on a watch message with %s: same verdict, same value', (_name, change) => {
    const value = structuredClone(message([event, event]));
    change(value as unknown as LooseMessage);
    const byZod = EventsMessageSchema.safeParse(value);
    const fast = compiled(value);
    expect(fast === REFUSED).toBe(!byZod.success);
    if (byZod.success) expect(fast).toStrictEqual(byZod.data);
  });

  it('checks every part of a watch message itself, none by zod', () => {
    expect(compiled.byZod).toEqual([]);
    expect(compileCheck(WatchEventsMessageSchema).byZod).toEqual([]);
  });

  it('refuses a message over the most events one may carry', () => {
    expect(compiled(message(Array.from({ length: MOST_EVENTS + 1 }, () => event)))).toBe(REFUSED);
    expect(compiled(message(Array.from({ length: MOST_EVENTS }, () => event)))).not.toBe(REFUSED);
  });

  it('leaves to zod what it does not know, and zod still decides', () => {
    const schema = z.object({ n: z.number().refine((n) => n % 2 === 0), s: z.string().transform((s) => s.length), u: z.union([z.string(), z.number()]) });
    const check = compileCheck(schema);
    expect(check.byZod).toEqual(['.n', '.s', '.u']);
    expect(check({ n: 2, s: 'abc', u: 1 })).toStrictEqual({ n: 2, s: 3, u: 1 });
    expect(check({ n: 3, s: 'abc', u: 1 })).toBe(REFUSED);
    expect(check({ n: 2, s: 'abc', u: true })).toBe(REFUSED);
  });

  it('keeps strict objects strict and patterns anchored as written', () => {
    const check = compileCheck(z.strictObject({ name: z.string().regex(/^[a-z]+$/) }));
    expect(check({ name: 'abc' })).toStrictEqual({ name: 'abc' });
    expect(check({ name: 'abc', more: 1 })).toBe(REFUSED);
    expect(check({ name: 'ab1' })).toBe(REFUSED);
  });
});
