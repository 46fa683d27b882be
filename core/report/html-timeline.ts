// The run drawn as inline SVG: one lane per test, named in the gutter (setup/call/teardown segments
// where the runner gave phase times), one lane per holder from first to last sighting (a shell loop's
// short-lived files folded into one), failures as red markers. Hover
// text comes from SVG <title>, so the picture needs no script.
import type { AttributedHolder, RunRecord, TestPhase, TestRecord, Verdict } from '../../contract/runs.js';
import {
  displayPath,
  formatDuration,
  holderPath,
  offset,
  outcomeLabel,
  PHASES,
  phaseSummary,
  shortenMiddle,
  sortedHolders,
  splitOutsiders,
  teardownFailed,
  timeMs,
  errorLabel,
} from './model.js';
import { html } from './text.js';
import { foldRecordHolders, type TransientGroup } from '../../contract/transient.js';
import { heldSinceMs } from '../../contract/held-since.js';

const WIDTH = 1100;
const GUTTER = 230;
const PLOT_LEFT = GUTTER + 10;
const PLOT_RIGHT = WIDTH - 40;
const AXIS_HEIGHT = 38;
const BAR = 16;
const LANE = 22;
const MAX_HOLDER_LANES = 30;
const MAX_TEST_LANES = 40;

export const VERDICT_COLOR: Record<Verdict, string> = {
  'blocked-cleanup': '#c62828',
  'leaked-past-test': '#e07b00',
  'outlived-run': '#a0522d',
  'closed-by-gc': '#7b52ab',
  'in-run': '#5b7fa6',
  'outside-run': '#8a8a8a',
};

export const PHASE_COLOR: Record<TestPhase, string> = { setup: '#b9d3f0', call: '#5f97d6', teardown: '#2f5f9e' };
export const FAILED_COLOR = '#c62828';
const SKIPPED_COLOR = '#c4c4c4';

interface Scale {
  x(iso: string): number;
  t0: number;
  t1: number;
}

/** Where a holder's bar starts: its recorded open, or its first sighting (contract/held-since.ts). */
function heldSince(a: AttributedHolder['attribution']): string {
  return new Date(heldSinceMs(a)).toISOString();
}

function makeScale(record: RunRecord): Scale {
  const times = [record.startedAt, record.endedAt, ...record.tests.flatMap((t) => [t.startedAt, t.endedAt])]
    .concat(sortedHolders(record).flatMap((h) => [heldSince(h.attribution), h.attribution.lastSeenAt]))
    .concat(record.failures.map((f) => f.at))
    .filter((t): t is string => t !== null)
    .map(timeMs)
    .filter((t) => t > 0);
  // A loop, not Math.min(...times): a spread passes each time as an argument, and a run of 100,000
  // tests overflows the call stack's argument limit.
  let t0 = times.length > 0 ? Infinity : 0;
  for (const t of times) if (t < t0) t0 = t;
  let t1 = t0 + 1;
  for (const t of times) if (t > t1) t1 = t;
  const span = PLOT_RIGHT - PLOT_LEFT;
  return { t0, t1, x: (iso) => PLOT_LEFT + ((Math.min(Math.max(timeMs(iso), t0), t1) - t0) / (t1 - t0)) * span };
}

function niceStepMs(spanMs: number): number {
  const target = spanMs / 8;
  for (const step of [100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000]) {
    if (step >= target) return step;
  }
  return 3_600_000 * Math.ceil(target / 3_600_000);
}

/** Cuts a label to what fits in `px` at ~6.6 px per character (11 px sans). */
function fit(text: string, px: number): string | null {
  const chars = Math.floor(px / 6.6);
  if (chars < 4) return null;
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/** The same, cut in the middle: test ids differ at their end, and their start says which file. */
function fitMiddle(text: string, px: number): string {
  return shortenMiddle(text, Math.max(4, Math.floor(px / 6.6)));
}

function rect(x: number, y: number, w: number, h: number, fill: string, extra = ''): string {
  return `<rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(1.5, w).toFixed(1)}" height="${h}" fill="${fill}"${extra}/>`;
}

/** Why a holder seen only later in this test's process may still have been let go by its end. */
const UNCONFIRMED_END = "its end is not confirmed: the test process went on before holdwatch's scan at the end was done";

function testBar(record: RunRecord, scale: Scale, t: TestRecord, y: number): string {
  const endIso = t.endedAt ?? record.endedAt ?? t.startedAt;
  const x0 = scale.x(t.startedAt);
  const x1 = scale.x(endIso);
  const tip = [
    t.name,
    `${outcomeLabel(t)}${phaseSummary(t) ? ` (${phaseSummary(t)})` : ''}`,
    `${offset(record, t.startedAt)}, ${formatDuration(timeMs(endIso) - timeMs(t.startedAt))}`,
    ...(t.endUnconfirmed ? [UNCONFIRMED_END] : []),
  ].join('\n');
  const parts: string[] = [`<g class="test"><title>${html(tip)}</title>`];
  const times = t.phaseTimes;
  const drawn = times ? PHASES.filter((p) => times[p] !== undefined) : [];
  if (times && drawn.length > 0) {
    for (const p of drawn) {
      const span = times[p]!;
      const outcome = t.phases?.[p];
      const fill = outcome === 'failed' || outcome === 'error' ? FAILED_COLOR : outcome === 'skipped' ? SKIPPED_COLOR : PHASE_COLOR[p];
      parts.push(rect(scale.x(span.startedAt), y, scale.x(span.endedAt) - scale.x(span.startedAt), BAR, fill));
    }
  } else {
    // Phase times unknown: a body that passed stays blue and a red cap at the end says the
    // teardown is what failed (its width is a mark, not a duration).
    const onlyTeardown = teardownFailed(t) && t.phases?.call === 'passed';
    const failed = t.outcome === 'failed' || t.outcome === 'error';
    const fill = failed && !onlyTeardown ? FAILED_COLOR : t.outcome === 'skipped' ? SKIPPED_COLOR : PHASE_COLOR.call;
    parts.push(rect(x0, y, x1 - x0, BAR, fill));
    if (onlyTeardown) parts.push(rect(Math.max(x0, x1 - 6), y, Math.min(6, x1 - x0), BAR, FAILED_COLOR));
  }
  parts.push(`<rect class="outline" x="${x0.toFixed(1)}" y="${y}" width="${Math.max(1.5, x1 - x0).toFixed(1)}" height="${BAR}" fill="none"/>`);
  // Its own lane, named in the gutter: the part of the name that differs is its end.
  parts.push(`<text x="${GUTTER}" y="${y + 12}" text-anchor="end" class="gutter">${html(fitMiddle(t.name, GUTTER - 10))}</text>`);
  parts.push('</g>');
  return parts.join('');
}

/** A lane of short-lived files of one process in one folder: their moments as ticks (contract/transient.ts). */
function foldedLane(record: RunRecord, scale: Scale, { members, dir, files }: TransientGroup<AttributedHolder>, y: number): string {
  const first = members[0]!;
  const tip = `${first.processName} PID ${first.pid}: ${files} short-lived files in ${displayPath(record, dir) || '.'}, each closed again within its test`;
  return [
    `<g class="lane"><title>${html(tip)}</title>`,
    `<text x="${GUTTER}" y="${y + 12}" text-anchor="end" class="gutter">${html(fit(`${first.processName} ${first.pid}`, GUTTER - 10) ?? '')}</text>`,
    ...members.map((h) =>
      rect(
        scale.x(h.attribution.firstSeenAt),
        y + 2,
        scale.x(h.attribution.lastSeenAt) - scale.x(h.attribution.firstSeenAt),
        BAR - 4,
        VERDICT_COLOR['in-run'],
        ' rx="1"',
      ),
    ),
    `<text x="${(PLOT_RIGHT + 4).toFixed(1)}" y="${y + 12}" class="beside" text-anchor="end">${html(`${files} short-lived files`)}</text>`,
    '</g>',
  ].join('');
}

function holderLane(record: RunRecord, scale: Scale, h: AttributedHolder, y: number): string {
  const a = h.attribution;
  const x0 = scale.x(heldSince(a));
  const x1 = scale.x(a.lastSeenAt);
  const path = holderPath(record, h);
  const tip = [
    `${h.processName} PID ${h.pid}: ${h.kind} ${path}`,
    `${a.verdict}; spawned during ${a.spawnedDuring ?? '—'}; first seen during ${a.firstSeenDuring ?? '—'}`,
    `seen ${offset(record, a.firstSeenAt)} to ${offset(record, a.lastSeenAt)}`,
  ].join('\n');
  const gutter = fit(`${h.processName} ${h.pid}`, GUTTER - 10) ?? '';
  // The label goes on the bar when it fits whole, else beside it when there is more room there.
  const text = `${h.kind} ${path}`;
  const onBarRoom = x1 - x0 - 6;
  const besideRoom = PLOT_RIGHT + 30 - x1;
  const label =
    fit(text, onBarRoom) === text || onBarRoom >= besideRoom
      ? { x: x0 + 3, cls: 'on-bar', text: fit(text, onBarRoom) }
      : { x: x1 + 4, cls: 'beside', text: fit(text, besideRoom) };
  return [
    `<g class="lane"><title>${html(tip)}</title>`,
    `<text x="${GUTTER}" y="${y + 12}" text-anchor="end" class="gutter">${html(gutter)}</text>`,
    rect(x0, y + 2, x1 - x0, BAR - 4, VERDICT_COLOR[a.verdict], ' rx="2"'),
    label.text ? `<text x="${label.x.toFixed(1)}" y="${y + 12}" class="${label.cls}">${html(label.text)}</text>` : '',
    '</g>',
  ].join('');
}

export function renderTimelineSvg(record: RunRecord): string {
  const scale = makeScale(record);
  const tests = [...record.tests].sort((a, b) => timeMs(a.startedAt) - timeMs(b.startedAt));
  const shownTests = tests.slice(0, MAX_TEST_LANES);
  // Other programs' files get no lane: the report counts and folds them (splitOutsiders).
  const holders = splitOutsiders(record, sortedHolders(record)).own;
  const { kept, groups } = foldRecordHolders(record, holders);
  const lanes = [...kept.map((h) => ({ h, group: null })), ...groups.map((g) => ({ h: g.members[0]!, group: g }))];
  const shownLanes = lanes.slice(0, MAX_HOLDER_LANES);
  const body: string[] = [];
  let y = AXIS_HEIGHT;

  body.push(`<text x="10" y="${y + 12}" class="row-title">Tests</text>`);
  y += LANE;
  if (tests.length === 0) body.push(`<text x="${PLOT_LEFT}" y="${y + 12}" class="beside">no test events</text>`);
  for (const t of shownTests) {
    body.push(testBar(record, scale, t, y));
    y += LANE;
  }
  if (tests.length > shownTests.length) {
    body.push(`<text x="${GUTTER}" y="${y + 12}" text-anchor="end" class="gutter">… and ${tests.length - shownTests.length} more tests</text>`);
    y += LANE;
  }
  if (tests.length === 0) y += LANE;
  y += 8;
  if (holders.length > 0) {
    body.push(`<line x1="10" x2="${PLOT_RIGHT}" y1="${y - 4}" y2="${y - 4}" class="sep"/>`);
    body.push(`<text x="10" y="${y + 12}" class="row-title">Holders</text>`);
    y += LANE;
    for (const { h, group } of shownLanes) {
      body.push(group ? foldedLane(record, scale, group, y) : holderLane(record, scale, h, y));
      y += LANE;
    }
    if (lanes.length > shownLanes.length) {
      body.push(`<text x="${GUTTER}" y="${y + 12}" text-anchor="end" class="gutter">… and ${lanes.length - shownLanes.length} more</text>`);
      y += LANE;
    }
  }
  const height = y + 6;
  const markers = record.failures.map((f) => {
    const x = scale.x(f.at).toFixed(1);
    const tip = `${errorLabel(record.platform, f.code, f.kind)} at ${offset(record, f.at)}${f.test ? ` during ${f.test}` : ''}\n${f.text}`;
    return `<g class="failure"><title>${html(tip)}</title><line x1="${x}" x2="${x}" y1="${AXIS_HEIGHT - 10}" y2="${height - 4}"/><path d="M${x} ${AXIS_HEIGHT - 2} l-6 -10 h12 z"/></g>`;
  });
  const label = `Timeline of run ${record.runId}: ${record.tests.length} tests, ${holders.length} holders, ${record.failures.length} failures`;
  return [
    `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${html(label)}" xmlns="http://www.w3.org/2000/svg">`,
    axis(record, scale, height),
    ...body,
    ...markers,
    '</svg>',
  ].join('\n');
}

function axis(record: RunRecord, scale: Scale, height: number): string {
  const step = niceStepMs(scale.t1 - scale.t0);
  const runStart = timeMs(record.startedAt) || scale.t0;
  const out: string[] = [];
  // Ticks are offsets from the run's start, the same clock the tables use.
  for (let t = Math.ceil((scale.t0 - runStart) / step) * step; runStart + t <= scale.t1; t += step) {
    const x = PLOT_LEFT + ((runStart + t - scale.t0) / (scale.t1 - scale.t0)) * (PLOT_RIGHT - PLOT_LEFT);
    out.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${AXIS_HEIGHT - 6}" y2="${height - 4}" class="tick"/>`);
    const anchor = x > PLOT_RIGHT - 30 ? 'end' : 'middle';
    out.push(`<text x="${x.toFixed(1)}" y="14" text-anchor="${anchor}" class="tick-label">${html(t === 0 ? '0' : `+${formatDuration(t)}`)}</text>`);
  }
  return out.join('');
}
