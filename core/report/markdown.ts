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
  shorten,
  sortedHolders,
  timelineExcerpt,
  timeMs,
  VERDICT_MEANING,
  VERDICT_ORDER,
  verdictsPresent,
  scratchSummary,
  openingTest,
  groupTestsCell,
  processLabel,
  probeSeenNote,
} from './model.js';
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
  const sections = [
    `**${mdInline(headline(record))}**`,
    summaryLine(record, holders),
    failuresSection(record, maxRows),
    holdersSection(record, holders, maxRows),
    ancestrySection(holders, maxRows),
    stacksSection(holders, maxRows),
    timelineSection(record, maxRows),
    leftoversSection(record, maxRows),
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

function holdersSection(record: RunRecord, holders: readonly AttributedHolder[], maxRows: number): string {
  const scratch = scratchSummary(record);
  if (holders.length === 0) return scratch ? `#### Holders (0)\n\n${mdText(scratch)}` : '';
  // A shell loop's hundred short-lived files become one row per process and folder (contract/transient.ts).
  const { kept, groups } = foldRecordHolders(record, holders);
  const foldedRows = groups.map((g) => {
    const first = g.members[0]!;
    return [
      mdCode(processLabel(first)),
      String(g.pid),
      'files',
      `${mdCode(displayPath(record, g.dir) + '/')} ${g.members.length} short-lived files`,
      '**in-run**',
      first.attribution.spawnedDuring === null ? '—' : mdCode(first.attribution.spawnedDuring),
      groupTestsCell(g.members, mdCode),
    ];
  });
  const rows = kept.map((h) => [
    mdCode(processLabel(h)),
    String(h.pid),
    h.kind,
    mdCode(holderPath(record, h)),
    `**${h.attribution.verdict}**`,
    h.attribution.spawnedDuring === null ? '—' : mdCode(h.attribution.spawnedDuring),
    openingTest(h) === null ? '—' : mdCode(openingTest(h)!),
  ]);
  const used = verdictsPresent(holders);
  const legend = used.map((v) => `**${v}**: ${VERDICT_MEANING[v]}`).join('; ');
  const dirs =
    record.watched.length === 1 ? `Paths are relative to ${mdCode(record.watched[0] ?? '')}.` : 'Paths are relative to the watched dir that holds them.';
  const folded = groups.reduce((n, g) => n + g.members.length, 0);
  const foldNote =
    groups.length === 0
      ? []
      : [
          `${folded} short-lived files (each closed again within its test) are folded into ${groups.length} row${groups.length === 1 ? '' : 's'}; the JSON report lists each.`,
        ];
  return [
    `#### Holders (${holders.length})`,
    ...(scratch ? [mdText(scratch)] : []),
    ...foldNote,
    mdTable(['Process', 'PID', 'Kind', 'Path', 'Verdict', 'Spawned during', 'Opened during'], [...rows, ...foldedRows], maxRows, 'holders'),
    [`${dirs} ${legend}.`, probeSeenNote(holders)].filter((line) => line !== null).join(' '),
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
      (a, depth) => `${'  '.repeat(depth + 1)}- ${mdCode(a.name)} ${a.pid}: ${mdCode(shorten(a.commandLine))}${a.gapBelow ? ` ${GAP_TEXT}` : ''}`,
    );
    return [`- ${title}`, ...chain].join('\n');
  });
  const more = processes.length - cap;
  if (more > 0) blocks.push(`… and ${more} more processes (the JSON report has every chain)`);
  return mdDetails(`Ancestry of ${processes.length} process${processes.length === 1 ? '' : 'es'} (runner first, holder last)`, blocks.join('\n'));
}

function timelineSection(record: RunRecord, maxRows: number): string {
  if (record.tests.length === 0) return '';
  const rows: string[][] = [];
  for (const row of timelineExcerpt(record, Math.min(maxRows, 30))) {
    if (row.kind === 'gap') {
      rows.push(['', `… ${row.skipped} test${row.skipped === 1 ? '' : 's'}`, '', '', '', '']);
      continue;
    }
    const t = row.test;
    const duration = t.endedAt === null ? '—' : formatDuration(timeMs(t.endedAt) - timeMs(t.startedAt));
    rows.push([
      String(row.index + 1),
      mdCode(t.name),
      outcomeLabel(t),
      phaseSummary(t) ?? '',
      `${offset(record, t.startedAt)}, ${duration}`,
      mdText(testNote(record, t.name, bodyPassedTeardownFailed(t))),
    ]);
  }
  const title = rows.length < record.tests.length ? 'Timeline (excerpt)' : 'Timeline';
  return [`#### ${title}: ${outcomeCounts(record)}`, mdTable(['#', 'Test', 'Outcome', 'Phases', 'Start, duration', 'Note'], rows, rows.length, 'rows')].join(
    '\n\n',
  );
}

/** What a reader must not miss about a test: its body passed and only teardown failed; failures during it. */
export function testNote(record: RunRecord, name: string, bodyPassed: boolean): string {
  const notes: string[] = [];
  if (bodyPassed) notes.push('body passed, teardown failed: the runner reports the whole test as failed, but the body is not the problem');
  for (const f of record.failures) if (f.test === name) notes.push(`${errorLabel(record.platform, f.code, f.kind)} at ${offset(record, f.at)}`);
  const leaked = record.holders.filter((h) => h.attribution.verdict === 'leaked-past-test' && h.attribution.firstSeenDuring === name).length;
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
  return mdDetails(`Leftovers (${record.leftovers.length}): files created during the run that still exist at its end`, lines.join('\n'));
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
