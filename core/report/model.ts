// The facts every report format shows, decided once: holder order, display paths, test lookup,
// which tests the timeline excerpt keeps, leftovers by test. Renderers only format these.
import type { AncestryEntry, PlatformName } from '../../contract/holders.js';
import type { AttributedHolder, RunRecord, TestOutcome, TestPhase, TestRecord, Verdict } from '../../contract/runs.js';
import { isUnder, POSIX_STYLE, relativeDisplay, WINDOWS_STYLE, type PathStyle } from '../paths.js';
import { holderKey, processKey } from '../../contract/identity.js';
import { foldNodeTestOptions, nodeTestFiles } from '../../contract/node-test-worker.js';

export const VERDICT_ORDER: readonly Verdict[] = ['blocked-cleanup', 'leaked-past-test', 'outlived-run', 'closed-by-gc', 'in-run', 'outside-run'];

/** The verdicts these holders carry, in VERDICT_ORDER: what a legend needs to explain. */
export function verdictsPresent(holders: readonly AttributedHolder[]): Verdict[] {
  return VERDICT_ORDER.filter((v) => holders.some((h) => h.attribution.verdict === v));
}

export const VERDICT_MEANING: Record<Verdict, string> = {
  'blocked-cleanup': 'held a path when a teardown failed, or when a run process deleted it (on Windows that delete fails)',
  'leaked-past-test': 'outlived the test (or the beforeAll, fixture or module scope) during which it appeared (on Windows, that cleanup fails)',
  'outlived-run': 'a process of this run still alive and holding it after the test command exited',
  'closed-by-gc':
    'never closed by the code: the garbage collector closed it inside its test; it leaks where finalisation is deferred (PyPy), and on Windows whenever the collection comes late',
  'in-run': 'a process of this run, still inside its test',
  'outside-run': 'not from this run (an indexer, antivirus, an editor)',
};

export const PHASES: readonly TestPhase[] = ['setup', 'call', 'teardown'];

export function pathStyle(platform: PlatformName): PathStyle {
  return platform === 'win32' ? WINDOWS_STYLE : POSIX_STYLE;
}

/** `path` relative to the watched dir it lies under (`dir` when known), else whole. */
export function displayPath(record: RunRecord, path: string, dir?: string): string {
  const style = pathStyle(record.platform);
  const base = dir !== undefined && isUnder(path, dir, style) ? dir : record.watched.find((d) => isUnder(path, d, style));
  return base === undefined ? path : relativeDisplay(path, base, style);
}

export function holderPath(record: RunRecord, holder: AttributedHolder): string {
  const path = displayPath(record, holder.path, holder.watchedDir);
  return holder.deleted ? `${path} (deleted)` : path;
}

/**
 * Every holder of the run, including ones only seen in a failure's snapshot, worst verdict first,
 * then in the order they appeared; scratch no teardown deletes (scratchSummary) is left out.
 */
export function sortedHolders(record: RunRecord): AttributedHolder[] {
  const byKey = new Map<string, AttributedHolder>();
  for (const h of record.holders) byKey.set(holderKey(h), h);
  for (const failure of record.failures) for (const h of failure.holders) if (!byKey.has(holderKey(h))) byKey.set(holderKey(h), h);
  return [...byKey.values()].filter((h) => h.attribution.scratch === undefined).sort(compareHolders);
}

/** The one line for the rows left out as scratch (`12 files in go build's work dir`), or null when none. */
export function scratchSummary(record: RunRecord): string | null {
  const counts = new Map<string, number>();
  for (const h of record.holders) if (h.attribution.scratch !== undefined) counts.set(h.attribution.scratch, (counts.get(h.attribution.scratch) ?? 0) + 1);
  if (counts.size === 0) return null;
  const parts = [...counts].map(([what, n]) => `${n} held in ${what}`);
  return `Not listed: ${parts.join(', ')}; no teardown deletes these.`;
}

export function compareHolders(a: AttributedHolder, b: AttributedHolder): number {
  return (
    VERDICT_ORDER.indexOf(a.attribution.verdict) - VERDICT_ORDER.indexOf(b.attribution.verdict) ||
    timeMs(a.attribution.firstSeenAt) - timeMs(b.attribution.firstSeenAt) ||
    a.pid - b.pid ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}

/** One entry per process (a process often holds several paths), in holder order. */
export function holderProcesses(holders: readonly AttributedHolder[]): { holder: AttributedHolder; paths: number }[] {
  const seen = new Map<string, { holder: AttributedHolder; paths: number }>();
  for (const h of holders) {
    const entry = seen.get(processKey(h));
    if (entry) entry.paths++;
    else seen.set(processKey(h), { holder: h, paths: 1 });
  }
  return [...seen.values()];
}

/** Said after an ancestry entry that is not the parent of the next one down (AncestryEntry.gapBelow). */
export const GAP_TEXT = '(… processes between exited before holdwatch listed them)';

/** The ancestry root first, the holder last; the holder is added when the record starts at its parent. */
export function chainRootFirst(holder: AttributedHolder): AncestryEntry[] {
  const chain = holder.attribution.ancestry.slice();
  if (chain[0]?.pid !== holder.pid) chain.unshift({ pid: holder.pid, name: holder.processName, commandLine: holder.commandLine });
  return chain.reverse();
}

/** Why the live parent differs from the recorded chain: the parent exited and the OS reparented the holder. */
export function reparentedNote(holder: AttributedHolder): string | null {
  const recorded = holder.attribution.ancestry.find((a) => a.pid !== holder.pid);
  if (!recorded || recorded.pid === holder.ppid) return null;
  if (recorded.gapBelow)
    return `its parent exited before holdwatch listed it (now PID ${holder.ppid}); the chain resumes at its test's process PID ${recorded.pid}`;
  return `its parent PID ${recorded.pid} exited (now PID ${holder.ppid}); chain as recorded when first seen`;
}

export function timeMs(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
}

/** `850 ms`, `12.34 s`, `3 min 05.2 s`. */
export function formatDuration(ms: number): string {
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min ${((ms - min * 60_000) / 1000).toFixed(1).padStart(4, '0')} s`;
}

/** A moment as an offset from the run's start: `+12.34 s`. */
export function offset(record: RunRecord, iso: string): string {
  const ms = timeMs(iso) - timeMs(record.startedAt);
  return ms < 0 ? formatDuration(ms) : `+${formatDuration(ms)}`;
}

export function runDurationMs(record: RunRecord): number | null {
  return record.endedAt === null ? null : timeMs(record.endedAt) - timeMs(record.startedAt);
}

const ERRNO_NAMES: Partial<Record<PlatformName, Record<number, string>>> = {
  linux: { 1: 'EPERM', 13: 'EACCES', 16: 'EBUSY', 26: 'ETXTBSY', 39: 'ENOTEMPTY' },
  darwin: { 1: 'EPERM', 13: 'EACCES', 16: 'EBUSY', 26: 'ETXTBSY', 66: 'ENOTEMPTY' },
};

/** The Win32 codes the signatures report (5, 32, 33, 145); Node's EBUSY/ENOTEMPTY/EPERM come as errno numbers. */
const WIN32_CODES = new Set([5, 32, 33, 145]);

/** `WinError 32`, `EBUSY`, or the failure kind in words when the message carried no code. */
export function errorLabel(platform: PlatformName, code: number | null, kind: string): string {
  if (code === null) return kind.replace(/-/g, ' ');
  if (platform === 'win32') return WIN32_CODES.has(code) ? `WinError ${code}` : (ERRNO_NAMES.linux?.[code] ?? `WinError ${code}`);
  return ERRNO_NAMES[platform]?.[code] ?? `errno ${code}`;
}

export function testsByName(record: RunRecord): Map<string, TestRecord> {
  return new Map(record.tests.map((t) => [t.name, t]));
}

function failedOutcome(outcome: TestOutcome | undefined | null): boolean {
  return outcome === 'failed' || outcome === 'error';
}

/** The test failed in its teardown/cleanup, whatever the body did. */
export function teardownFailed(test: TestRecord): boolean {
  return failedOutcome(test.phases?.teardown) || (failedOutcome(test.outcome) && test.phase === 'teardown');
}

/**
 * Body passed, teardown failed. Runners print one verdict per test (bats: `not ok`), which sends
 * readers to debug a body that worked; the report says it plainly.
 */
export function bodyPassedTeardownFailed(test: TestRecord): boolean {
  return teardownFailed(test) && test.phases?.call === 'passed';
}

/** One line on what each phase did, or null when the runner gave no phases. */
export function phaseSummary(test: TestRecord): string | null {
  const phases = test.phases;
  if (!phases) return test.phase ? `decided in ${test.phase}` : null;
  const parts = PHASES.filter((p) => phases[p] !== undefined).map((p) => `${p} ${phases[p]}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export function outcomeLabel(test: TestRecord): string {
  if (test.outcome !== null) return test.outcome;
  return test.endedAt === null ? 'did not finish' : 'unknown';
}

export function outcomeCounts(record: RunRecord): string {
  const counts = new Map<string, number>();
  for (const t of record.tests) counts.set(outcomeLabel(t), (counts.get(outcomeLabel(t)) ?? 0) + 1);
  const parts = [...counts].map(([label, n]) => `${n} ${label}`);
  const total = `${record.tests.length} test${record.tests.length === 1 ? '' : 's'}`;
  return parts.length > 0 ? `${total} (${parts.join(', ')})` : total;
}

export type ExcerptRow = { kind: 'test'; index: number; test: TestRecord } | { kind: 'gap'; skipped: number };

/**
 * The tests around what matters (failures, then tests whose holders leaked), `context` either side,
 * with gaps marked; all tests when there are few and nothing to focus on.
 */
export function timelineExcerpt(record: RunRecord, maxRows: number, context = 2): ExcerptRow[] {
  const tests = record.tests;
  const focus = focusTests(record);
  const keep = new Set<number>();
  if (focus.size === 0 && tests.length <= maxRows) tests.forEach((_, i) => keep.add(i));
  tests.forEach((t, i) => {
    if (!focus.has(t.name)) return;
    for (let j = Math.max(0, i - context); j <= Math.min(tests.length - 1, i + context); j++) keep.add(j);
  });
  const rows: ExcerptRow[] = [];
  let skipped = 0;
  let shown = 0;
  tests.forEach((test, index) => {
    if (!keep.has(index) || shown >= maxRows) {
      skipped++;
      return;
    }
    if (skipped > 0) rows.push({ kind: 'gap', skipped });
    skipped = 0;
    rows.push({ kind: 'test', index, test });
    shown++;
  });
  if (skipped > 0 && rows.length > 0) rows.push({ kind: 'gap', skipped });
  return rows;
}

function focusTests(record: RunRecord): Set<string> {
  const names = new Set<string>();
  for (const f of record.failures) if (f.test !== null) names.add(f.test);
  for (const t of record.tests) if (teardownFailed(t)) names.add(t.name);
  if (names.size > 0) return names;
  for (const h of record.holders) {
    if (h.attribution.verdict !== 'leaked-past-test') continue;
    if (h.attribution.firstSeenDuring !== null) names.add(h.attribution.firstSeenDuring);
    if (h.attribution.spawnedDuring !== null) names.add(h.attribution.spawnedDuring);
  }
  if (names.size > 0) return names;
  for (const t of record.tests) if (failedOutcome(t.outcome)) names.add(t.name);
  return names;
}

export interface LeftoverGroup {
  /** The test during which they appeared; null: between tests (see `after`) or before the first. */
  test: string | null;
  /** With `test` null: the last test that had ended when they appeared; null: before the first test. */
  after: string | null;
  paths: string[];
}

/** Leftovers by the test during (or after) which they appeared, in test order (before the first test first). */
export function leftoverGroups(record: RunRecord): LeftoverGroup[] {
  const order = new Map(record.tests.map((t, i) => [t.name, i]));
  const groups = new Map<string, LeftoverGroup>();
  for (const l of record.leftovers) {
    const after = l.createdDuring === null ? (l.createdAfter ?? null) : null;
    const key = JSON.stringify([l.createdDuring, after]);
    const group = groups.get(key) ?? { test: l.createdDuring, after, paths: [] };
    group.paths.push(displayPath(record, l.path));
    groups.set(key, group);
  }
  // After a test sorts right behind it; an unknown name last.
  const rankOf = (test: string) => order.get(test) ?? record.tests.length;
  const rank = (g: LeftoverGroup): number => (g.test !== null ? rankOf(g.test) : g.after !== null ? rankOf(g.after) + 0.5 : -1);
  return [...groups.values()]
    .map((g) => ({ ...g, paths: g.paths.sort() }))
    .sort((a, b) => rank(a) - rank(b) || String(a.test ?? a.after).localeCompare(String(b.test ?? b.after)));
}

/** Where a leftover group appeared, in words; `quote` renders a test name in the report's language. */
export function leftoverPlace(group: LeftoverGroup, quote: (test: string) => string): string {
  if (group.test !== null) return `during ${quote(group.test)}`;
  if (group.after !== null) return `after ${quote(group.after)} ended, while no test ran`;
  return 'before the first test';
}

/** Long command lines are cut for reading; the JSON keeps them whole. */
export function shorten(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A command line as the reports show it: node:test's own options folded, then cut for reading. */
export function commandLineText(commandLine: string): string {
  return shorten(foldNodeTestOptions(commandLine));
}

/**
 * The test that opened a holder's handle (the strongest evidence's answer), else the wider scope it was
 * opened in (a suite's before-all hooks, a file's top), else the test it was first seen in.
 */
export function openingTest(holder: AttributedHolder): string | null {
  const { openedDuring, scope, firstSeenDuring } = holder.attribution;
  return openedDuring ?? (scope ? scopeLabel(scope) : firstSeenDuring);
}

/** A wider scope as a test column says it: `store (before-all)`, `store.test.mjs (file scope)`. */
export function scopeLabel(scope: NonNullable<AttributedHolder['attribution']['scope']>): string {
  return `${scope.name} (${scope.kind === 'suite' ? 'before-all' : `${scope.kind} scope`})`;
}

/**
 * The tests that opened a folded group's files, as one cell's words: none (null), the one test, or how
 * many; `quote` renders a test name in the report's language.
 */
export function groupTestsCell(members: readonly AttributedHolder[], quote: (test: string) => string): string {
  const tests = [...new Set(members.map(openingTest).filter((t): t is string => t !== null))];
  return tests.length === 0 ? '—' : tests.length === 1 ? quote(tests[0]!) : `${tests.length} tests`;
}

/**
 * `node (test/store.test.mjs)` (a node:test file process, known by its test file),
 * `python3`, `python3 (+2 children)` (descendants holding the same thing through it fold into its row),
 * `node (probe)` (only the probe inside it saw the holding: it exited before a scan).
 */
export function processLabel(holder: AttributedHolder): string {
  const n = holder.alsoHeldBy?.length ?? 0;
  const children = n === 0 ? '' : ` (+${n} ${n === 1 ? 'child' : 'children'})`;
  const testFiles = nodeTestFiles(holder.commandLine);
  const name = testFiles ? `${holder.processName} (${testFiles.join(' ')})` : holder.processName;
  return `${name}${children}${holder.attribution.seenBy === 'probe' ? ' (probe)' : ''}`;
}

/** What a holders table says under it about `(probe)` rows, when it has any. */
export function probeSeenNote(holders: readonly AttributedHolder[]): string | null {
  return holders.some((h) => h.attribution.seenBy === 'probe')
    ? '(probe): no scan saw it; the probe inside the process recorded it (still open when its test ended, or closed by the garbage collector between two scans).'
    : null;
}

/**
 * Leftover processes: the run's processes still alive and holding something after the test command
 * exited (seen by a scan then), one entry per process with what it held. Without the exit's time (an
 * older journal) the verdict that says so.
 */
export function leftoverProcesses(record: RunRecord): { holder: AttributedHolder; held: AttributedHolder[] }[] {
  const exitedAt = record.commandExitedAt;
  const outlived = (h: AttributedHolder) =>
    h.attribution.verdict !== 'outside-run' &&
    (h.attribution.verdict === 'outlived-run' || (exitedAt !== undefined && timeMs(h.attribution.lastSeenAt) >= timeMs(exitedAt)));
  const byProcess = new Map<string, { holder: AttributedHolder; held: AttributedHolder[] }>();
  for (const h of sortedHolders(record).filter(outlived)) {
    const entry = byProcess.get(processKey(h));
    if (entry) entry.held.push(h);
    else byProcess.set(processKey(h), { holder: h, held: [h] });
  }
  return [...byProcess.values()];
}

/**
 * A leftover process in words: who (`name` PID n) and the rest (spawned during `test`: still held `a`,
 * `b`, and 3 more); `quote` renders a name, `quotePath` a path, in the report's language.
 */
export function leftoverProcessWords(
  record: RunRecord,
  { holder, held }: { holder: AttributedHolder; held: readonly AttributedHolder[] },
  quote: (text: string) => string,
  quotePath: (text: string) => string,
  shown = 5,
): { who: string; rest: string } {
  const spawned = holder.attribution.spawnedDuring;
  const by = spawned === null ? 'spawned before the first test' : `spawned during ${quote(spawned)}`;
  const paths = held.slice(0, shown).map((h) => quotePath(holderPath(record, h)));
  const more = held.length > paths.length ? `, and ${held.length - paths.length} more` : '';
  return { who: `${quote(processLabel(holder))} PID ${holder.pid}`, rest: `${by}: still held ${paths.join(', ')}${more}` };
}

/**
 * A path cut in its middle to `max` characters: its start says where, its end names the file; a cut
 * from the left would lose the start, a cut from the right the file.
 */
export function shortenMiddle(text: string, max = 56): string {
  if (text.length <= max) return text;
  const tail = Math.ceil((max - 1) * 0.6);
  return `${text.slice(0, max - 1 - tail)}…${text.slice(text.length - tail)}`;
}

/**
 * The run's own holders, and the holders of processes outside the run (an indexer, an editor) that
 * block no cleanup: those are counted and folded, not listed among the run's. An outsider holding the
 * path a cleanup failed on (or a folder around it) stays with the run's rows: it is the answer.
 */
export function splitOutsiders(record: RunRecord, holders: readonly AttributedHolder[]): { own: AttributedHolder[]; outsiders: AttributedHolder[] } {
  const style = pathStyle(record.platform);
  const failedPaths = record.failures.flatMap((f) => (f.path === null ? [] : [f.path]));
  const blocks = (h: AttributedHolder) => failedPaths.some((p) => isUnder(h.path, p, style) || isUnder(p, h.path, style));
  const own: AttributedHolder[] = [];
  const outsiders: AttributedHolder[] = [];
  for (const h of holders) (h.attribution.verdict === 'outside-run' && !blocks(h) ? outsiders : own).push(h);
  return { own, outsiders };
}
