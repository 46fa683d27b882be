// How a batch of watch events crosses to a page: one array per field, every string once in a table
// and named by its index. One JSON object per holder repeats each key, the process's command line
// and the watched dir 100,000 times, which made a first scan too big for a page's send buffer and
// slow to parse; columns of small integers are neither. The schema is checked once per batch; the
// indices are checked while the events are rebuilt, so a value outside its table is refused too.
import { z } from 'zod';
import { HOLDER_CHANGES, HOLDER_KINDS } from './enums.js';
import { HandleAccessSchema, type HandleAccess, type Holder, type WatchEvent } from './holders.js';
import { iso, pid } from './primitives.js';

/**
 * How one poll's watch events are cut into messages: the first small, so a page shows the first rows
 * at once; each next one twice the last, up to the most one message carries. A page folds each into
 * its table once, and every fold sorts the whole table, so a fold per thousand holders would cost
 * more than the holders.
 */
export const WATCH_FIRST_MESSAGE_EVENTS = 1_000;
export const WATCH_EVENTS_PER_MESSAGE = 32_000;

/** An index into a table; ABSENT stands for null (or a key left out). */
const index = z.number().int().min(-1);
const ABSENT = -1;

export const WatchColumnsSchema = z.object({
  /** Every distinct string of the batch, once. */
  strings: z.array(z.string()),
  /** Every distinct event time, once. */
  times: z.array(iso),
  /** Every distinct handle access, once. */
  accesses: z.array(HandleAccessSchema),
  /** Per event, in order: an index into HOLDER_CHANGES. The other columns are as long. */
  type: z.array(index).min(1).max(WATCH_EVENTS_PER_MESSAGE),
  at: z.array(index),
  pid: z.array(pid),
  ppid: z.array(pid),
  processStartedAtMs: z.array(z.number()),
  processName: z.array(index),
  commandLine: z.array(index),
  user: z.array(index),
  /** An index into HOLDER_KINDS. */
  kind: z.array(index),
  path: z.array(index),
  pathBytesBase64: z.array(index),
  /** 1: deleted, 0: not. */
  deleted: z.array(index),
  handle: z.array(index),
  watchedDir: z.array(index),
  access: z.array(index),
});
export type WatchColumns = z.infer<typeof WatchColumnsSchema>;

/** Which columns hold one entry per event (all but the tables). */
type EventColumn = Exclude<keyof WatchColumns, 'strings' | 'times' | 'accesses'>;
const EVENT_COLUMNS: readonly EventColumn[] = Object.keys(WatchColumnsSchema.shape).filter(
  (key): key is EventColumn => key !== 'strings' && key !== 'times' && key !== 'accesses',
);

/** Gives each distinct value its index in `table`, adding it on first sight. */
function interner<T>(table: T[], keyOf: (value: T) => unknown = (v) => v): (value: T) => number {
  const seen = new Map<unknown, number>();
  return (value) => {
    const key = keyOf(value);
    let at = seen.get(key);
    if (at === undefined) {
      at = table.push(value) - 1;
      seen.set(key, at);
    }
    return at;
  };
}

export function encodeWatchColumns(events: readonly WatchEvent[]): WatchColumns {
  const columns: WatchColumns = { strings: [], times: [], accesses: [], ...emptyEventColumns() };
  const string = interner(columns.strings);
  const time = interner(columns.times);
  const access = interner(columns.accesses, (a: HandleAccess) => `${a.rights.join(',')}\0${a.flags}\0${a.raw}`);
  const orAbsent = <T>(value: T | null | undefined, intern: (v: T) => number) => (value === null || value === undefined ? ABSENT : intern(value));
  for (const { type, at, holder: h } of events) {
    columns.type.push(HOLDER_CHANGES.indexOf(type));
    columns.at.push(time(at));
    columns.pid.push(h.pid);
    columns.ppid.push(h.ppid);
    columns.processStartedAtMs.push(h.processStartedAtMs);
    columns.processName.push(string(h.processName));
    columns.commandLine.push(string(h.commandLine));
    columns.user.push(orAbsent(h.user, string));
    columns.kind.push(HOLDER_KINDS.indexOf(h.kind));
    columns.path.push(string(h.path));
    columns.pathBytesBase64.push(orAbsent(h.pathBytesBase64, string));
    columns.deleted.push(h.deleted ? 1 : 0);
    columns.handle.push(orAbsent(h.handle, string));
    columns.watchedDir.push(string(h.watchedDir));
    columns.access.push(orAbsent(h.access, access));
  }
  return columns;
}

function emptyEventColumns(): Pick<WatchColumns, EventColumn> {
  return Object.fromEntries(EVENT_COLUMNS.map((key) => [key, []])) as unknown as Pick<WatchColumns, EventColumn>;
}

/** How many events a batch carries: the length every event column shares. */
function eventCount(columns: WatchColumns): number {
  return columns.type.length;
}

/** A batch that passed its schema but not its indices (a column too short, an index past its table). */
export class WatchColumnsError extends Error {
  override readonly name = 'WatchColumnsError';
}

/** The events again, each holder a fresh object; throws WatchColumnsError when an index is out of place. */
export function decodeWatchColumns(columns: WatchColumns): WatchEvent[] {
  const count = eventCount(columns);
  for (const key of EVENT_COLUMNS)
    if (columns[key].length !== count) throw new WatchColumnsError(`watch columns: ${key} has ${columns[key].length} entries, not ${count}`);
  const pick =
    <T>(table: readonly T[], what: string) =>
    (at: number, i: number): T => {
      const value = table[at];
      if (value === undefined) throw new WatchColumnsError(`watch columns: ${what}[${i}] = ${at} is not in its table`);
      return value;
    };
  const string = pick(columns.strings, 'a string');
  const maybeString = (at: number, i: number) => (at === ABSENT ? null : string(at, i));
  const time = pick(columns.times, 'at');
  const access = pick(columns.accesses, 'access');
  const type = pick(HOLDER_CHANGES, 'type');
  const kind = pick(HOLDER_KINDS, 'kind');
  const events = new Array<WatchEvent>(count);
  for (let i = 0; i < count; i++) {
    const holder: Holder = {
      pid: columns.pid[i]!,
      ppid: columns.ppid[i]!,
      processStartedAtMs: columns.processStartedAtMs[i]!,
      processName: string(columns.processName[i]!, i),
      commandLine: string(columns.commandLine[i]!, i),
      user: maybeString(columns.user[i]!, i),
      kind: kind(columns.kind[i]!, i),
      path: string(columns.path[i]!, i),
      deleted: columns.deleted[i] === 1,
      handle: maybeString(columns.handle[i]!, i),
      watchedDir: string(columns.watchedDir[i]!, i),
    };
    if (columns.pathBytesBase64[i] !== ABSENT) holder.pathBytesBase64 = string(columns.pathBytesBase64[i]!, i);
    if (columns.access[i] !== ABSENT) holder.access = access(columns.access[i]!, i);
    events[i] = { type: type(columns.type[i]!, i), at: time(columns.at[i]!, i), holder };
  }
  return events;
}
