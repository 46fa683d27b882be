// The first line of every report: what failed, what held it, and which test started the holder.
// Built as text and code pieces so Markdown and HTML each escape the values their own way.
import type { AttributedHolder, FailureRecord, RunRecord } from '../../contract/runs.js';
import { isUnder } from '../paths.js';
import { deletionOf } from './stacks-section.js';
import { compareHolders, displayPath, errorLabel, holderPath, pathStyle, sortedHolders, teardownFailed, testsByName } from './model.js';

/** A piece of prose: our own words as text, machine values as code. */
export type Inline = string | { code: string };

export function headline(record: RunRecord): Inline[] {
  const failure = record.failures[0];
  if (failure) return failureHeadline(record, failure);
  const predicted = sortedHolders(record).filter((h) => h.attribution.verdict === 'blocked-cleanup');
  if (predicted[0]) return predictedHeadline(record, predicted[0], predicted.length);
  const leaked = sortedHolders(record).filter((h) => h.attribution.verdict === 'leaked-past-test');
  if (leaked[0]) return leakHeadline(record, dataFirst(leaked), leaked.length);
  const outlived = sortedHolders(record).filter((h) => h.attribution.verdict === 'outlived-run');
  if (outlived[0]) return outlivedHeadline(record, dataFirst(outlived), outlived.length);
  const finalized = sortedHolders(record).filter((h) => h.attribution.verdict === 'closed-by-gc');
  if (finalized[0]) return finalizedHeadline(record, finalized[0], finalized.length);
  return cleanHeadline(record);
}

/** Plain text of a headline (HTML <title>, logs). */
export function headlineText(parts: readonly Inline[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : p.code)).join('');
}

function failureHeadline(record: RunRecord, failure: FailureRecord): Inline[] {
  const test = failure.test === null ? undefined : testsByName(record).get(failure.test);
  const label = errorLabel(record.platform, failure.code, failure.kind);
  const out: Inline[] = [];
  if (failure.test === null) out.push(`Cleanup failed (${label})`);
  else if (!test || teardownFailed(test)) out.push('Teardown of ', { code: failure.test }, ` failed (${label})`);
  else out.push('Cleanup in ', { code: failure.test }, ` failed (${label})`);
  const holder = culprit(record, failure);
  if (holder) {
    out.push(': ', ...who(holder));
    out.push(', still held ', { code: holderPath(record, holder) });
    const others = failure.holders.length - 1;
    if (others > 0) out.push(` (and ${others} more holder${others === 1 ? '' : 's'})`);
  } else {
    if (failure.path !== null) out.push(' on ', { code: displayPath(record, failure.path) });
    out.push('; the scan taken at that moment found no holder under the watched dirs');
  }
  const more = record.failures.length - 1;
  if (more > 0) out.push(`; ${more} more failure${more === 1 ? '' : 's'} below`);
  return out;
}

/** The holder to name: one in this run holding the failed path, else any in this run, else any. */
function culprit(record: RunRecord, failure: FailureRecord): AttributedHolder | undefined {
  const style = pathStyle(record.platform);
  const firstSeen = (h: AttributedHolder) => Date.parse(h.attribution.firstSeenAt);
  return failure.holders.slice().sort((a, b) => score(b) - score(a) || firstSeen(a) - firstSeen(b) || compareHolders(a, b))[0];
  function score(h: AttributedHolder): number {
    // The failed path or something inside it (a file in the dir rmtree failed on), then a dir around
    // it (a cwd); a process of this run before an outsider. Among equals the longest-held wins: the
    // cleanup's own `rm`, holding the dir it removes, is seen last and is not the culprit.
    const p = failure.path;
    const onPath = p === null ? 0 : isUnder(h.path, p, style) ? 2 : isUnder(p, h.path, style) ? 1 : 0;
    return onPath * 4 + (isRunningScript(h) ? 0 : 2) + (h.attribution.verdict === 'outside-run' ? 0 : 1);
  }
}

/** The first holder that is not a script its interpreter runs, else the first. */
function dataFirst(holders: readonly AttributedHolder[]): AttributedHolder {
  return holders.find((h) => !isRunningScript(h)) ?? holders[0]!;
}

/** Shells and the interpreters that run a script named on their command line. */
const INTERPRETER = /^(?:(?:ba|da|z|k|c|tc|fi)?sh|bats(?:-[\w-]+)?|python[\d.]*|pypy[\d.]*|node|perl|ruby|php|Rscript)$/;

/**
 * A script its interpreter holds while it runs it (bash keeps its script open on fd 255 to read it as it
 * goes): held, yet not what a cleanup fails on; that is the data the script writes. Known by its file
 * being the script on the process's own command line: the first word after a shell's or an
 * interpreter's options (none after `-c`/`-e`: the code is inline, and the later words are its data).
 */
function isRunningScript(h: AttributedHolder): boolean {
  if (h.kind !== 'file') return false;
  const words = h.commandLine.split(/\s+/).filter((w) => w !== '');
  const program = (words[0] ?? '').split(/[\\/]/).pop()!;
  if (!INTERPRETER.test(h.processName) && !INTERPRETER.test(program)) return false;
  const options = words.slice(1);
  const at = options.findIndex((w) => !w.startsWith('-'));
  if (at < 0 || options.slice(0, at).some((w) => w === '-c' || w === '-e')) return false;
  const script = options[at]!;
  const name = h.path.split(/[\\/]/).pop()!;
  return script === h.path || script === name || script.endsWith(`/${name}`) || script.endsWith(`\\${name}`);
}

function who(holder: AttributedHolder): Inline[] {
  const out: Inline[] = [{ code: holder.processName }, ` PID ${holder.pid}`];
  const spawned = holder.attribution.spawnedDuring;
  if (holder.attribution.verdict === 'outside-run') out.push(' (not from this run)');
  else if (spawned !== null) out.push(', spawned by ', { code: spawned });
  else out.push(', spawned before the first test');
  return out;
}

function leakHeadline(record: RunRecord, holder: AttributedHolder, count: number): Inline[] {
  const a = holder.attribution;
  // The test that opened it, by the strongest evidence there was; the first sighting's test without any.
  const during = a.openedDuring ?? a.firstSeenDuring ?? a.spawnedDuring;
  const out: Inline[] = ['No teardown failed, but ', { code: holder.processName }, ` PID ${holder.pid} still held `, { code: holderPath(record, holder) }];
  const openedAt = openLine(record, holder);
  const among = a.openStack?.found && !a.openedDuring ? a.openStack.stack.ambiguousAmong : undefined;
  if (a.scope && !a.openedDuring) out.push(...scopeWords(a.scope), ...(openedAt ? [' (', { code: openedAt }, ')'] : []));
  else if (openedAt && a.openedDuring) out.push(', opened in ', { code: a.openedDuring }, ' at ', { code: openedAt }, ', after that test ended');
  else if (among)
    out.push(' after ', ...among.flatMap((t, i): Inline[] => [i === 0 ? '' : ', ', { code: t }]), ' ended (they ran in parallel: one of them opened it)');
  else out.push(...(during === null ? [' after its test ended'] : [' after ', { code: during }, ' ended']));
  if (holder.attribution.spawnedDuring !== null && holder.attribution.spawnedDuring !== during)
    out.push(' (spawned by ', { code: holder.attribution.spawnedDuring }, ')');
  if (count > 1) out.push(` (and ${count - 1} more handle${count === 2 ? '' : 's'} outlived ${count === 2 ? 'its' : 'their'} test)`);
  out.push(
    record.platform === 'win32'
      ? `: deleting it while held fails ${windowsFailure(holder).short}`
      : `: on Windows, that cleanup would fail ${windowsFailure(holder).short}`,
  );
  return out;
}

/**
 * No failure line, but a run process deleted a path that a run process still held (the probe saw the
 * call, or a scan saw the file unlinked): on Windows that very delete fails.
 */
function predictedHeadline(record: RunRecord, holder: AttributedHolder, count: number): Inline[] {
  const a = holder.attribution;
  const deletedBy = deletionOf(a);
  const frame = deletedBy?.frames.find((f) => f.user);
  const out: Inline[] = ['No teardown failed here, but '];
  // A parent's delete that met its child's handle or working directory: the child, not the caller, held it.
  const parent = deletedBy?.pid;
  if (deletedBy)
    out.push(
      { code: deletedBy.api },
      ...(frame ? [' at ', { code: frameLine(record, frame) }] : []),
      parent === undefined ? ' deleted ' : ` in PID ${parent} deleted `,
    );
  else out.push('the run deleted ');
  out.push(
    { code: holderPath(record, holder).replace(/ \(deleted\)$/, '') },
    parent === undefined ? ' while ' : ' while its child ',
    { code: holder.processName },
    ` PID ${holder.pid} still held it`,
  );
  const openedAt = openLine(record, holder);
  if (a.openedDuring) out.push(' (opened in ', { code: a.openedDuring }, ...(openedAt ? [' at ', { code: openedAt }] : []), ')');
  else if (a.scope) out.push(' (', ...openedInScope(a.scope), ...(openedAt ? [' at ', { code: openedAt }] : []), ')');
  if (count > 1) out.push(` (and ${count - 1} more like it)`);
  out.push(
    record.platform === 'win32' ? `: that delete fails ${windowsFailure(holder).short}` : `: on Windows, that delete fails ${windowsFailure(holder).long}`,
  );
  return out;
}

/** Where an open of a wider scope was made, as a parenthesis says it. */
function openedInScope(scope: NonNullable<AttributedHolder['attribution']['scope']>): Inline[] {
  if (scope.kind === 'suite') return ['opened in a before-all hook of ', { code: scope.name }];
  if (scope.kind === 'file') return ['opened at the top of ', { code: scope.name }];
  return ['opened outside any suite of ', { code: scope.name }];
}

/** How a wider scope's leak reads: where it was opened, and that it outlived the scope's end. */
function scopeWords(scope: NonNullable<AttributedHolder['attribution']['scope']>): Inline[] {
  if (scope.kind === 'suite') return [', opened in a before-all hook of ', { code: scope.name }, ', still open after its after-all hooks'];
  if (scope.kind === 'file') return [', opened at the top of ', { code: scope.name }, ' (import or before-all), still open after its after-all hooks'];
  return [', opened outside any suite of ', { code: scope.name }, ', still open when it ended'];
}

function outlivedHeadline(record: RunRecord, holder: AttributedHolder, count: number): Inline[] {
  const out: Inline[] = ['No teardown failed, but ', ...who(holder), ', still held ', { code: holderPath(record, holder) }, ' after the test command exited'];
  if (count > 1) out.push(` (and ${count - 1} more handle${count === 2 ? '' : 's'} held by processes that outlived the run)`);
  out.push(
    record.platform === 'win32'
      ? `: deleting it meanwhile fails ${windowsFailure(holder).short}`
      : `: on Windows, deleting it meanwhile would fail ${windowsFailure(holder).short}`,
  );
  return out;
}

function finalizedHeadline(record: RunRecord, holder: AttributedHolder, count: number): Inline[] {
  const a = holder.attribution;
  const out: Inline[] = ['No teardown failed, but ', { code: holderPath(record, holder) }];
  const openedAt = openLine(record, holder);
  if (openedAt) out.push(', opened at ', { code: openedAt });
  if (a.openedDuring) out.push(' in ', { code: a.openedDuring });
  out.push(', was never closed by the code: the garbage collector closed it');
  if (count > 1) out.push(` (and ${count - 1} more like it)`);
  out.push(
    record.platform === 'win32'
      ? `; when the collection comes late, or on PyPy, it is still open at the teardown: ${windowsFailure(holder).code}`
      : `; on PyPy, or on Windows when the collection comes late, it is still open at the teardown: ${windowsFailure(holder).code}`,
  );
  return out;
}

/** `tests/test_x.py:12`: the first user frame of the open, relative to the run's cwd when under it. */
function openLine(record: RunRecord, holder: AttributedHolder): string | null {
  const lookup = holder.attribution.openStack;
  if (!lookup?.found) return null;
  const frame = lookup.stack.frames.find((f) => f.user) ?? lookup.stack.frames[0];
  return frame ? frameLine(record, frame) : null;
}

function frameLine(record: RunRecord, frame: { file: string; line: number }): string {
  const style = pathStyle(record.platform);
  const file = isUnder(frame.file, record.cwd, style) ? displayPath(record, frame.file, record.cwd) : frame.file;
  return `${file}:${frame.line}`;
}

function cleanHeadline(record: RunRecord): Inline[] {
  const tests = `${record.tests.length} test${record.tests.length === 1 ? '' : 's'}`;
  const exit = record.exitCode === null ? 'no exit code' : `exit code ${record.exitCode}`;
  const out: Inline[] = [`No teardown failed and no handle outlived its test (${tests}, ${exit})`];
  const n = record.leftovers.length;
  if (n > 0) out.push(`, but ${n} file${n === 1 ? ' was' : 's were'} left behind under the watched dirs`);
  return out;
}

/**
 * What Windows answers a cleanup that meets this holding, by how it was opened. Node's fs opens a file
 * deletable (libuv asks for delete sharing): the file's delete succeeds and leaves it pending while it is
 * open, so its folder's removal is what fails, ENOTEMPTY (WinError 145). Any other open (Python's, Go's,
 * a native library's, a working directory, a mapping) refuses the delete itself: WinError 32, which
 * Node reports as EBUSY.
 */
function windowsFailure(holder: AttributedHolder): { code: string; short: string; long: string } {
  const open = holder.attribution.openStack;
  const deletable = holder.kind === 'file' && open?.found === true && open.stack.runtime === 'node' && open.stack.api.startsWith('fs.');
  if (deletable)
    return {
      code: 'ENOTEMPTY',
      short: 'with ENOTEMPTY on its folder',
      long: '(ENOTEMPTY, WinError 145: the file stays, delete-pending, until it is closed, so its folder cannot be removed)',
    };
  return { code: 'WinError 32', short: 'with WinError 32', long: '(WinError 32, EBUSY)' };
}
