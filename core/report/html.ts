// One self-contained HTML file: inline CSS and SVG, no script, no network (a CSP says so to the
// browser too), every machine-given string escaped so a path holding `<script>` stays text.
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import type { StackLookup } from '../../contract/stacks.js';
import { headline, headlineText, type Inline } from './headline.js';
import { FAILED_COLOR, PHASE_COLOR, renderTimelineSvg, VERDICT_COLOR } from './html-timeline.js';
import { REPORT_CSS } from './html-style.js';
import { outsidersNote, summaryLine, testNote } from './markdown.js';
import { foldRecordHolders } from '../../contract/transient.js';
import { HOLDER_COLUMNS, holderCells, type CellFormat, type HolderRow } from './holder-columns.js';
import {
  bodyPassedTeardownFailed,
  chainRootFirst,
  GAP_TEXT,
  displayPath,
  errorLabel,
  leftoverProcesses,
  leftoverProcessWords,
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
  commandLineText,
  sortedHolders,
  timelineExcerpt,
  timeMs,
  VERDICT_MEANING,
  verdictsPresent,
  probeSeenNote,
} from './model.js';
import { prepare, type ReportOptions } from './options.js';
import { reproduceCommand } from './shell-quote.js';
import { deletionCall, finalizerClose, formatStack, isListedOnly, LISTED_TEXT, topUserFrame } from './stacks-section.js';
import { html } from './text.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Code with break chances after separators, so a long path wraps at `/` or `::`, not mid-name. */
function code(text: string): string {
  return `<code>${html(text).replace(/(::|[/\\])(?!$)/g, '$1<wbr>')}</code>`;
}

function inline(parts: readonly Inline[]): string {
  return parts.map((p) => (typeof p === 'string' ? html(p) : code(p.code))).join('');
}

function verdictBadge(verdict: AttributedHolder['attribution']['verdict']): string {
  return `<span class="verdict verdict-${verdict}">${html(verdict)}</span>`;
}

export function renderHtml(input: RunRecord, options: ReportOptions = {}): string {
  const { record, maxRows } = prepare(input, options);
  const holders = sortedHolders(record);
  const { own, outsiders } = splitOutsiders(record, holders);
  const title = headline(record);
  const sections = [
    timelineSection(record, own),
    failuresSection(record),
    holdersSection(record, own, outsiders, maxRows),
    outlivedSection(record, maxRows),
    ancestrySection(own, maxRows),
    stacksSection(own, maxRows),
    testsSection(record, maxRows),
    leftoversSection(record, maxRows),
    outsidersSection(record, outsiders, maxRows),
    reproduceSection(record),
    platformSection(record),
  ];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${html(`holdwatch: ${headlineText(title)}`)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    `<body class="${record.failures.length > 0 ? 'kind-failure' : 'kind-other'}">`,
    '<main>',
    `<header><h1>${inline(title)}</h1><p class="meta">${html(summaryLine(record, holders))}</p></header>`,
    ...sections.filter((s) => s !== ''),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function timelineSection(record: RunRecord, holders: readonly AttributedHolder[]): string {
  const used = verdictsPresent(holders);
  const swatch = (color: string, text: string) => `<span><i class="swatch" style="background:${color}"></i>${html(text)}</span>`;
  // Only what the picture shows: phase colours when the runner gave phase times, red when something failed.
  const phased = record.tests.some((t) => t.phaseTimes !== undefined);
  const failed = record.tests.some((t) => t.outcome === 'failed' || t.outcome === 'error');
  const legend = [
    phased ? swatch(PHASE_COLOR.setup, 'setup') : '',
    swatch(PHASE_COLOR.call, phased ? 'call' : 'test'),
    phased ? swatch(PHASE_COLOR.teardown, 'teardown') : '',
    failed ? swatch(FAILED_COLOR, phased ? 'failed phase' : 'failed (a red end only: the teardown failed)') : '',
    ...used.map((v) => swatch(VERDICT_COLOR[v], `holder: ${v}`)),
    record.failures.length > 0 ? `<span><b style="color:${FAILED_COLOR}">▼ ┆</b> teardown failure</span>` : '',
  ].join('');
  return `<section><h2>Timeline</h2><div class="scroll">${renderTimelineSvg(record)}</div><p class="legend">${legend}</p><p class="legend">Hover a bar for its details. Times are offsets from the run's start.</p></section>`;
}

function failuresSection(record: RunRecord): string {
  if (record.failures.length === 0) return '';
  const items = record.failures.map((f) => {
    const where = f.test === null ? 'outside any test' : `during ${code(f.test)}`;
    const path = f.path === null ? '' : ` on ${code(displayPath(record, f.path))}`;
    const held = f.holders.length === 0 ? 'no holder found at that moment' : `${f.holders.length} holder${f.holders.length === 1 ? '' : 's'} at that moment`;
    return `<p>At ${html(offset(record, f.at))} ${where}: <b>${html(errorLabel(record.platform, f.code, f.kind))}</b>${path}, ${held}.</p><pre>${html(f.text)}</pre>`;
  });
  return `<section><h2>Teardown failures (${record.failures.length})</h2>${items.join('')}</section>`;
}

/** How the HTML writes a cell: code with break chances, verdict badges, a folded group's files a click away. */
const HTML_CELLS: CellFormat = {
  code,
  path: code,
  verdict: verdictBadge,
  files: (summary, paths) => `<details><summary>${summary}</summary><ul>${paths.map((p) => `<li>${code(p)}</li>`).join('')}</ul></details>`,
};

function holderRowHtml(record: RunRecord, row: HolderRow): string {
  const cells = holderCells(HOLDER_COLUMNS, row, record, HTML_CELLS).map((cell) => `<td>${cell}</td>`);
  return `<tr${row.kind === 'group' ? ' class="folded"' : ''}>${cells.join('')}</tr>`;
}

function holdersSection(record: RunRecord, holders: readonly AttributedHolder[], outsiders: readonly AttributedHolder[], maxRows: number): string {
  const outside = outsidersNote(outsiders);
  if (holders.length === 0) return outside ? `<section><h2>Holders (0)</h2><p>${html(outside)}</p></section>` : '';
  const head = `<tr>${HOLDER_COLUMNS.map((c) => `<th>${html(c.label)}</th>`).join('')}</tr>`;
  const { kept, groups } = foldRecordHolders(record, holders);
  const rows = [...kept.map((holder) => ({ kind: 'holder' as const, holder })), ...groups.map((group) => ({ kind: 'group' as const, group }))].map((row) =>
    holderRowHtml(record, row),
  );
  const rest = rows.slice(maxRows);
  // The file is for reading locally, so the rest is one click away rather than only in the JSON.
  const more = rest.length === 0 ? '' : `<details><summary>… and ${rest.length} more holders</summary><table>${head}${rest.join('\n')}</table></details>`;
  const used = verdictsPresent(holders);
  const legend = used.map((v) => `${verdictBadge(v)} ${html(VERDICT_MEANING[v])}`).join('<br>');
  const note = probeSeenNote(holders);
  const dirs =
    record.watched.length === 1 ? `Paths are relative to ${code(record.watched[0] ?? '')}.` : 'Paths are relative to the watched dir that holds them.';
  return `<section><h2>Holders (${holders.length})</h2>${outside ? `<p>${html(outside)}</p>` : ''}<table>${head}${rows.slice(0, maxRows).join('\n')}</table>${more}<p class="legend">${dirs}<br>${legend}${note === null ? '' : `<br>${html(note)}`}</p></section>`;
}

/** Leftover processes: alive and holding after the test command exited, each with what it still held. */
function outlivedSection(record: RunRecord, maxRows: number): string {
  const processes = leftoverProcesses(record);
  if (processes.length === 0) return '';
  const items = processes.slice(0, maxRows).map((entry) => {
    const { who, rest } = leftoverProcessWords(record, entry, code, code, maxRows);
    return `<li><span class="holder-title">${who}</span>, ${rest}</li>`;
  });
  const more = processes.length > maxRows ? `<p class="legend">… and ${processes.length - maxRows} more processes (the JSON report has all of them)</p>` : '';
  const n = processes.length;
  return `<section><h2>Outlived the run (${n} leftover process${n === 1 ? '' : 'es'})</h2><p class="meta">Still alive and holding after the test command exited (<code>--kill-leftovers</code> ends them).</p><ul>${items.join('')}</ul>${more}</section>`;
}

/** Processes outside the run, one line each with the paths they held: folded, at the end. */
function outsidersSection(record: RunRecord, outsiders: readonly AttributedHolder[], maxRows: number): string {
  if (outsiders.length === 0) return '';
  const processes = holderProcesses(outsiders);
  const items = processes.slice(0, maxRows).map(({ holder, paths }) => {
    const held = outsiders.filter((h) => h.pid === holder.pid);
    return `<li>${code(holder.processName)} PID ${holder.pid}: ${paths} path${paths === 1 ? '' : 's'}<details><summary>paths</summary><ul>${held
      .slice(0, maxRows)
      .map((h) => `<li>${code(holderPath(record, h))}</li>`)
      .join('')}</ul></details></li>`;
  });
  const more = processes.length > maxRows ? `<p class="legend">… and ${processes.length - maxRows} more processes (the JSON report has all of them)</p>` : '';
  return folded(
    `Outside this run <small class="meta">(${outsiders.length} paths, ${processes.length} processes)</small>`,
    `<p class="meta">${html(VERDICT_MEANING['outside-run'])}</p><ul>${items.join('')}</ul>${more}`,
  );
}

/** A section past the answer, folded under its title: the reader opens what they need. */
function folded(title: string, body: string): string {
  return `<section><details><summary><h2>${title}</h2></summary>${body}</details></section>`;
}

function ancestrySection(holders: readonly AttributedHolder[], maxRows: number): string {
  const processes = holderProcesses(holders);
  if (processes.length === 0) return '';
  const cap = Math.min(maxRows, 20);
  const blocks = processes.slice(0, cap).map(({ holder, paths }) => {
    const note = reparentedNote(holder);
    const chain = chainRootFirst(holder);
    let nested = '';
    for (const entry of [...chain].reverse())
      nested = `<ul><li>${code(entry.name)} ${entry.pid}: <span class="mono">${html(commandLineText(entry.commandLine))}</span>${entry.gapBelow ? ` <small class="meta">${html(GAP_TEXT)}</small>` : ''}${nested}</li></ul>`;
    const title = `<span class="holder-title">${code(holder.processName)} PID ${holder.pid}</span> (${paths} path${paths === 1 ? '' : 's'}, ${verdictBadge(holder.attribution.verdict)})${note ? `: ${html(note)}` : ''}`;
    return `<ul class="chain"><li>${title}${nested}</li></ul>`;
  });
  const more = processes.length > cap ? `<p class="legend">… and ${processes.length - cap} more processes (the JSON report has every chain)</p>` : '';
  return folded(`Ancestry <small class="meta">(runner first, holder last)</small>`, `${blocks.join('')}${more}`);
}

function stacksSection(holders: readonly AttributedHolder[], maxRows: number): string {
  const withStacks = holders.filter((h) => h.attribution.openStack?.found || h.attribution.spawnStack?.found || h.attribution.deletedBy);
  if (withStacks.length === 0) return '';
  const shown = withStacks.slice(0, Math.min(maxRows, 20));
  const deletion = (h: AttributedHolder) => {
    const call = deletionCall(h.attribution);
    return call ? `<p>deleted ${html(call.when)} ${code(call.api)} at ${code(call.at)}: on Windows, that call fails</p>` : '';
  };
  const finalized = (h: AttributedHolder) => {
    const closed = finalizerClose(h);
    return closed ? `<p>${html(closed.what)} ${closed.during === null ? 'between tests' : `during ${code(closed.during)}`}</p>` : '';
  };
  const block = (label: string, lookup: StackLookup | undefined) => {
    if (!lookup?.found) return '';
    if (isListedOnly(lookup)) return `<p>${html(LISTED_TEXT)}</p>`;
    return `<p>${html(label)} ${code(lookup.stack.api)} at ${code(topUserFrame(lookup) ?? '?')}</p><pre>${html(formatStack(lookup))}</pre>`;
  };
  const items = shown.map(
    (h) =>
      `<li><span class="holder-title">${code(h.processName)} PID ${h.pid}</span>, ${code(h.path)}${block('opened by', h.attribution.openStack)}${finalized(h)}${deletion(h)}${block('process started by', h.attribution.spawnStack)}</li>`,
  );
  const more =
    withStacks.length > shown.length
      ? `<p class="legend">… and ${withStacks.length - shown.length} more holders with stacks (the JSON report has all of them)</p>`
      : '';
  return `<section><h2>Where it was opened <small class="meta">(&gt; marks your code)</small></h2><ul class="chain">${items.join('')}</ul>${more}</section>`;
}

function testsSection(record: RunRecord, maxRows: number): string {
  if (record.tests.length === 0) return '';
  const rows = timelineExcerpt(record, Math.min(maxRows, 30)).map((row) => {
    if (row.kind === 'gap') return `<tr class="gap"><td></td><td colspan="5">… ${row.skipped} test${row.skipped === 1 ? '' : 's'}</td></tr>`;
    const t = row.test;
    const duration = t.endedAt === null ? '—' : formatDuration(timeMs(t.endedAt) - timeMs(t.startedAt));
    const bodyPassed = bodyPassedTeardownFailed(t);
    return `<tr${bodyPassed ? ' class="teardown-only"' : ''}><td class="num">${row.index + 1}</td><td>${code(t.name)}</td><td>${html(outcomeLabel(t))}</td><td>${html(phaseSummary(t) ?? '')}</td><td class="num">${html(`${offset(record, t.startedAt)}, ${duration}`)}</td><td class="note">${html(testNote(record, t.name, bodyPassed))}</td></tr>`;
  });
  return folded(
    `Tests: ${html(outcomeCounts(record))}`,
    `<table><tr><th>#</th><th>Test</th><th>Outcome</th><th>Phases</th><th>Start, duration</th><th>Note</th></tr>${rows.join('\n')}</table>`,
  );
}

function leftoversSection(record: RunRecord, maxRows: number): string {
  if (record.leftovers.length === 0) return '';
  const groups = leftoverGroups(record).map((g) => {
    const during = leftoverPlace(g, code);
    const shown = g.paths.slice(0, maxRows).map((p) => `<li>${code(p)}</li>`);
    const more = g.paths.length > maxRows ? `<li>… and ${g.paths.length - maxRows} more</li>` : '';
    return `<li>${during} (${g.paths.length})<ul>${shown.join('')}${more}</ul></li>`;
  });
  return folded(
    `Leftover files (${record.leftovers.length})`,
    `<p class="meta">Files created during the run that still exist at its end, by the test during which they appeared.</p><ul>${groups.join('')}</ul>`,
  );
}

function reproduceSection(record: RunRecord): string {
  const { line } = reproduceCommand(record.platform, record.cwd, record.command, record.watched);
  return `<section><h2>Reproduce</h2><pre>${html(line)}</pre></section>`;
}

function platformSection(record: RunRecord): string {
  const v = record.versions;
  const rows: [string, string][] = [
    ['Platform', `${html(record.platform)}, ${code(v.os)}`],
    ['holdwatch', code(v.holdwatch)],
    ['Node.js', code(v.node)],
    ['Run', `${code(record.runId)}, started ${code(record.startedAt)}`],
    ['Watched', record.watched.map(code).join(', ')],
  ];
  return `<section><h2>Platform</h2><dl>${rows.map(([k, val]) => `<dt>${html(k)}</dt><dd>${val}</dd>`).join('')}</dl></section>`;
}
