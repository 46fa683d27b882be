// The report made to paste into a GitHub issue: headline first, then the evidence a maintainer
// asks for (holders, ancestry, timeline, leftovers, platform, how to reproduce).
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import { headline, type Inline } from './headline.js';
import {
  bodyPassedTeardownFailed,
  chainRootFirst,
  GAP_TEXT,
  displayPath,
  errorLabel,
  leftoverProcesses,
  leftoverProcessWords,
  shortenMiddle,
  splitOutsiders,
  formatDuration,
  holderPath,
  holderProcesses,
  leftoverGroups,
  leftoverPlace,
  offset,
  outcomeCounts,
  outcomeLabel,
  phaseSummary,
  reparentedNote,
  runDurationMs,
  commandLineText,
  sortedHolders,
  timeMs,
  VERDICT_MEANING,
  VERDICT_ORDER,
  verdictsPresent,
  scratchSummary,
  openingTest,
  probeSeenNote,
} from './model.js';
import { HOLDER_COLUMNS, holderCells, type CellFormat, type HolderRow } from './holder-columns.js';
import { prepare, type ReportOptions } from './options.js';
import { reproduceCommand } from './shell-quote.js';
import { stacksSection } from './stacks-section.js';
import { mdCell, mdCode, mdFence, mdText } from './text.js';
import { foldRecordHolders, parentOf } from '../../contract/transient.js';

export function mdInline(parts: readonly Inline[]): string {
  return parts.map((p) => (typeof p === 'string' ? mdText(p) : mdCode(p.code))).join('');
}

export function renderMarkdown(input: RunRecord, options: ReportOptions = {}): string {
  const { record, maxRows } = prepare(input, options);
  const holders = sortedHolders(record);
  const { own, outsiders } = splitOutsiders(record, holders);
  const sections = [
    `**${mdInline(headline(record))}**`,
    summaryLine(record, holders),
    failuresSection(record, maxRows),
    holdersSection(record, own, outsiders, maxRows),
    outlivedSection(record, maxRows),
    ancestrySection(own, maxRows),
    stacksSection(own, maxRows),
    timelineSection(record, maxRows),
    leftoversSection(record, maxRows),
    outsidersSection(record, outsiders, maxRows),
    reproduceSection(record),
    platformSection(record),
  ];
  return `${sections.filter((s) => s !== '').join('\n\n')}\n`;
}

export function summaryLine(record: RunRecord, holders: readonly AttributedHolder[]): string {
  const duration = runDurationMs(record);
  const verdicts = VERDICT_ORDER.map((v) => [v, holders.filter((h) => h.attribution.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`);
  return [
    record.platform,
    outcomeCounts(record),
    record.exitCode === null ? 'no exit code' : `exit code ${record.exitCode}`,
    duration !== null ? formatDuration(duration) : record.stoppedWhile ? `did not finish: holdwatch stopped at ${record.stoppedWhile}` : 'did not finish',
    `${holders.length} holder${holders.length === 1 ? '' : 's'}${verdicts.length > 0 ? ` (${verdicts.join(', ')})` : ''}`,
    `${record.failures.length} teardown failure${record.failures.length === 1 ? '' : 's'}`,
  ].join(' · ');
}

/** A table with a header, at most `maxRows` rows, and a line saying how many were left out. */
export function mdTable(head: readonly string[], rows: readonly string[][], maxRows: number, what: string): string {
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const row of rows.slice(0, maxRows)) lines.push(`| ${row.map(mdCell).join(' | ')} |`);
  const more = rows.length - maxRows;
  if (more > 0) lines.push('', `… and ${more} more ${what} (the JSON report has all of them)`);
  return lines.join('\n');
}

function failuresSection(record: RunRecord, maxRows: number): string {
  if (record.failures.length === 0) return '';
  const parts = [`#### Teardown failures (${record.failures.length})`];
  for (const f of record.failures.slice(0, maxRows)) {
    const where = f.test === null ? 'outside any test' : `during ${mdCode(f.test)}`;
    const path = f.path === null ? '' : ` on ${mdCode(displayPath(record, f.path))}`;
    const held = f.holders.length === 0 ? 'no holder found at that moment' : `${f.holders.length} holder${f.holders.length === 1 ? '' : 's'} at that moment`;
    parts.push(`At ${offset(record, f.at)} ${where}: ${mdText(errorLabel(record.platform, f.code, f.kind))}${path}, ${held}.`, mdFence(f.text));
  }
  const more = record.failures.length - maxRows;
  if (more > 0) parts.push(`… and ${more} more failures (the JSON report has all of them)`);
  return parts.join('\n\n');
}

/** How the Markdown writes a cell: code spans, bold verdicts, paths cut in the middle in the main table. */
export function mdFormat(shortPaths: boolean): CellFormat {
  return {
    code: mdCode,
    path: (text) => mdCode(shortPaths ? shortenMiddle(text) : text),
    verdict: (v) => `**${v}**`,
    files: (summary) => summary,
  };
}

function holdersSection(record: RunRecord, holders: readonly AttributedHolder[], outsiders: readonly AttributedHolder[], maxRows: number): string {
  const scratch = scratchSummary(record);
  const outside = outsidersNote(outsiders);
  if (holders.length === 0) return scratch || outside ? [`#### Holders (0)`, ...[scratch, outside].filter((l) => l !== null).map(mdText)].join('\n\n') : '';
  // A shell loop's hundred short-lived files become one row per process and folder (contract/transient.ts).
  const { kept, groups } = foldRecordHolders(record, holders);
  const rows: HolderRow[] = [...kept.map((holder) => ({ kind: 'holder' as const, holder })), ...groups.map((group) => ({ kind: 'group' as const, group }))];
  const main = HOLDER_COLUMNS.filter((c) => c.main);
  const folded = HOLDER_COLUMNS.filter((c) => !c.main || c.key);
  const used = verdictsPresent(holders);
  const legend = used.map((v) => `**${v}**: ${VERDICT_MEANING[v]}`).join('; ');
  const dirs =
    record.watched.length === 1 ? `Paths are relative to ${mdCode(record.watched[0] ?? '')}.` : 'Paths are relative to the watched dir that holds them.';
  const foldedFiles = groups.reduce((n, g) => n + g.files, 0);
  const foldNote =
    groups.length === 0
      ? []
      : [
          `${foldedFiles} short-lived files (each closed again within its test) are folded into ${groups.length} row${groups.length === 1 ? '' : 's'}; the JSON report lists each.`,
        ];
  const cells = (columns: typeof HOLDER_COLUMNS, short: boolean) => rows.map((row) => holderCells(columns, row, record, mdFormat(short)));
  return [
    `#### Holders (${holders.length})`,
    ...(scratch ? [mdText(scratch)] : []),
    ...(outside ? [mdText(outside)] : []),
    ...foldNote,
    mdTable(
      main.map((c) => c.label),
      cells(main, true),
      maxRows,
      'holders',
    ),
    [`${dirs} ${legend}.`, probeSeenNote(holders)].filter((line) => line !== null).join(' '),
    mdDetails(
      'Whole paths, kinds and the tests that spawned each process',
      mdTable(
        folded.map((c) => c.label),
        cells(folded, false),
        maxRows,
        'holders',
      ),
    ),
  ].join('\n\n');
}

/** The one line that counts what processes outside the run held, or null when none did. */
export function outsidersNote(outsiders: readonly AttributedHolder[]): string | null {
  if (outsiders.length === 0) return null;
  const processes = holderProcesses(outsiders).length;
  return `Not listed here: ${outsiders.length} path${outsiders.length === 1 ? '' : 's'} held by ${processes} process${processes === 1 ? '' : 'es'} outside this run (none of them blocked a cleanup); they are folded at the end.`;
}

/** Processes outside the run, one line each with a few of the paths they held: folded, at the end. */
function outsidersSection(record: RunRecord, outsiders: readonly AttributedHolder[], maxRows: number): string {
  if (outsiders.length === 0) return '';
  const processes = holderProcesses(outsiders);
  const lines = processes.slice(0, maxRows).map(({ holder, paths }) => {
    const some = outsiders.filter((h) => h.pid === holder.pid).slice(0, 3);
    const names = some.map((h) => mdCode(shortenMiddle(holderPath(record, h)))).join(', ');
    return `- ${mdCode(holder.processName)} PID ${holder.pid}: ${paths} path${paths === 1 ? '' : 's'} (${names}${paths > some.length ? ', …' : ''})`;
  });
  if (processes.length > maxRows) lines.push(`… and ${processes.length - maxRows} more processes (the JSON report has all of them)`);
  return mdDetails(`Outside this run (${outsiders.length} paths, ${processes.length} processes): ${VERDICT_MEANING['outside-run']}`, lines.join('\n'));
}

/** Leftover processes: alive and holding after the test command exited, each with what it still held. */
function outlivedSection(record: RunRecord, maxRows: number): string {
  const processes = leftoverProcesses(record);
  if (processes.length === 0) return '';
  const lines = processes.slice(0, maxRows).map((entry) => {
    const { who, rest } = leftoverProcessWords(record, entry, mdCode, (p) => mdCode(shortenMiddle(p)));
    return `- ${who}, ${rest}`;
  });
  if (processes.length > maxRows) lines.push(`… and ${processes.length - maxRows} more processes (the JSON report has all of them)`);
  return [
    `#### Outlived the run (${processes.length} leftover process${processes.length === 1 ? '' : 'es'})`,
    'Still alive and holding after the test command exited (`--kill-leftovers` ends them).',
    lines.join('\n'),
  ].join('\n\n');
}

function ancestrySection(holders: readonly AttributedHolder[], maxRows: number): string {
  const processes = holderProcesses(holders);
  if (processes.length === 0) return '';
  const cap = Math.min(maxRows, 20);
  const blocks = processes.slice(0, cap).map(({ holder, paths }) => {
    const note = reparentedNote(holder);
    const title = `${mdCode(holder.processName)} PID ${holder.pid} (${paths} path${paths === 1 ? '' : 's'}, ${holder.attribution.verdict})${note ? `: ${mdText(note)}` : ''}`;
    const chain = chainRootFirst(holder).map(
      (a, depth) => `${'  '.repeat(depth + 1)}- ${mdCode(a.name)} ${a.pid}: ${mdCode(commandLineText(a.commandLine))}${a.gapBelow ? ` ${GAP_TEXT}` : ''}`,
    );
    return [`- ${title}`, ...chain].join('\n');
  });
  const more = processes.length - cap;
  if (more > 0) blocks.push(`… and ${more} more processes (the JSON report has every chain)`);
  return mdDetails(`Ancestry of ${processes.length} process${processes.length === 1 ? '' : 'es'} (runner first, holder last)`, blocks.join('\n'));
}

/** The tests with something to say (a note, an outcome or a phase other than passed); the rest counted in one line. */
function timelineSection(record: RunRecord, maxRows: number): string {
  if (record.tests.length === 0) return '';
  const rows: string[][] = [];
  let quiet = 0;
  record.tests.forEach((t, index) => {
    const note = testNote(record, t.name, bodyPassedTeardownFailed(t));
    const phases = phaseSummary(t);
    const phasesToSay = phases !== null && !/^(?:\w+ passed(?: · )?)+$/.test(phases);
    if (note === '' && (t.outcome === 'passed' || t.outcome === 'skipped') && !phasesToSay) return void quiet++;
    const duration = t.endedAt === null ? '—' : formatDuration(timeMs(t.endedAt) - timeMs(t.startedAt));
    rows.push([
      String(index + 1),
      mdCode(t.name),
      `${outcomeLabel(t)}${phasesToSay ? ` (${phases})` : ''}`,
      `${offset(record, t.startedAt)}, ${duration}`,
      mdText(note),
    ]);
  });
  const others = rows.length === 0 ? (quiet === 1 ? 'The one test' : `All ${quiet} tests`) : quiet === 1 ? 'The other test' : `The other ${quiet} tests`;
  const rest = quiet === 0 ? [] : [`${others}: passed or skipped, nothing to note.`];
  const table = rows.length === 0 ? [] : [mdTable(['#', 'Test', 'Outcome', 'Start, duration', 'Note'], rows, Math.min(maxRows, 30), 'tests')];
  return [`#### Timeline: ${outcomeCounts(record)}`, ...table, ...rest].join('\n\n');
}

/** What a reader must not miss about a test: its body passed and only teardown failed; failures during it. */
export function testNote(record: RunRecord, name: string, bodyPassed: boolean): string {
  const notes: string[] = [];
  if (bodyPassed) notes.push('body passed, teardown failed: the runner reports the whole test as failed, but the body is not the problem');
  for (const f of record.failures) if (f.test === name) notes.push(`${errorLabel(record.platform, f.code, f.kind)} at ${offset(record, f.at)}`);
  const leaked = record.holders.filter((h) => h.attribution.verdict === 'leaked-past-test' && openingTest(h) === name).length;
  if (leaked > 0) notes.push(`${leaked} handle${leaked === 1 ? '' : 's'} outlived this test`);
  return notes.join('; ');
}

function leftoversSection(record: RunRecord, maxRows: number): string {
  if (record.leftovers.length === 0) return '';
  const lines: string[] = [];
  let budget = maxRows;
  const groups = leftoverGroups(record);
  for (const group of groups) {
    if (budget <= 0) break;
    const during = leftoverPlace(group, mdCode);
    lines.push(`- ${during} (${group.paths.length}):`);
    // Many files: by folder, largest first, a few names each; few: every path.
    const byDir = group.paths.length > 10 ? foldersOf(group.paths) : null;
    if (byDir) {
      const shown = byDir.slice(0, Math.min(budget, 10));
      for (const d of shown)
        lines.push(
          `  - ${mdCode(d.dir + '/')} ${d.names.length} file${d.names.length === 1 ? '' : 's'}: ${d.names.slice(0, 3).map(mdCode).join(', ')}${d.names.length > 3 ? ', …' : ''}`,
        );
      if (byDir.length > shown.length) lines.push(`  - … and ${byDir.length - shown.length} more folders`);
      budget -= shown.length + 1;
      continue;
    }
    const shown = group.paths.slice(0, Math.min(budget, 10));
    for (const p of shown) lines.push(`  - ${mdCode(p)}`);
    if (group.paths.length > shown.length) lines.push(`  - … and ${group.paths.length - shown.length} more`);
    budget -= shown.length + 1;
  }
  const listed = lines.filter((l) => l.startsWith('- ')).length;
  if (listed < groups.length) lines.push(`… and ${groups.length - listed} more tests with leftovers (the JSON report has all of them)`);
  return mdDetails(`Leftover files (${record.leftovers.length}): created during the run and still there at its end`, lines.join('\n'));
}

/** Paths grouped by their folder, the fullest folder first. */
function foldersOf(paths: readonly string[]): { dir: string; names: string[] }[] {
  const byDir = new Map<string, string[]>();
  for (const p of paths) {
    const parent = parentOf(p);
    const dir = parent || '.';
    const names = byDir.get(dir) ?? [];
    names.push(parent ? p.slice(parent.length + 1) : p);
    byDir.set(dir, names);
  }
  return [...byDir].map(([dir, names]) => ({ dir, names })).sort((a, b) => b.names.length - a.names.length || a.dir.localeCompare(b.dir));
}

/** A section folded under its title (GitHub renders the Markdown inside; blank lines around it matter). */
function mdDetails(title: string, body: string): string {
  return `<details><summary><strong>${mdText(title)}</strong></summary>\n\n${body}\n\n</details>`;
}

function reproduceSection(record: RunRecord): string {
  const { shell, line } = reproduceCommand(record.platform, record.cwd, record.command, record.watched);
  return ['#### Reproduce', mdFence(line, shell)].join('\n\n');
}

function platformSection(record: RunRecord): string {
  const v = record.versions;
  const rows = [
    ['Platform', `${record.platform}, ${mdCode(v.os)}`],
    ['holdwatch', mdCode(v.holdwatch)],
    ['Node.js', mdCode(v.node)],
    ['Run', `${mdCode(record.runId)}, started ${mdCode(record.startedAt)}`],
    ['Watched', record.watched.map(mdCode).join(', ')],
  ];
  return ['#### Platform', mdTable(['', ''], rows, rows.length, 'rows')].join('\n\n');
}
