// Turns the measurements of one fixture size into the printed table and the PASS/MISS lines.
// Pure: everything it needs is passed in, so it is tested without processes.
import type { FixtureHolder } from './fixture.js';
import type { Measurement } from './measurement.js';
import { comparePids, describeHolders, isSuperset } from './pid-sets.js';
import { formatMs, formatRatio, median, ratio } from './stats.js';
import { formatTextTable } from './text-table.js';

/** The rows the claims are about, by role; any of them may be absent (a tool failed). */
export interface BenchRows {
  /** The fd-only C floor: the table's ratio base. */
  floor: Measurement;
  /** The C floor of the same answer: the warm poll's target is against it. */
  answerFloor: Measurement;
  oneShot: Measurement;
  warmPoll: Measurement;
  lsofDir: Measurement;
  lsofGrep: Measurement;
  fuser: Measurement;
  others: Measurement[];
}

export const WARM_POLL_MAX_FLOOR_RATIO = 1.3;
export const ONE_SHOT_MAX_PEER_RATIO = 0.9;

/** "min/median/max" of a measurement's samples, in ms. */
function spreadOf(m: Measurement, samples = m.samplesMs): string {
  if (samples.length === 0) return '-';
  return [Math.min(...samples), median(samples), Math.max(...samples)].map(formatMs).join('/');
}

/** The CPU each used (10 ms ticks), beside the wall times: on a loaded machine the steadier of the two. */
function cpuSpreads(a: Measurement, b: Measurement): string {
  if (!a.cpuSamplesMs?.length || !b.cpuSamplesMs?.length) return '';
  return `; CPU ms min/median/max ${spreadOf(a, a.cpuSamplesMs)} vs ${spreadOf(b, b.cpuSamplesMs)}`;
}

export function formatBenchTable(rows: BenchRows, holders: readonly FixtureHolder[]): string {
  const floorMs = median(rows.floor.samplesMs);
  const oneShotMs = median(rows.oneShot.samplesMs);
  const ordered = [rows.floor, rows.answerFloor, rows.oneShot, rows.warmPoll, ...rows.others, rows.lsofDir, rows.lsofGrep, rows.fuser];
  const body = ordered.map((m) => {
    const ms = median(m.samplesMs);
    const pids = m.pids ? comparePids(m.pids, holders) : null;
    return [
      m.tool,
      m.note ? m.note : `${formatMs(ms)} (n=${m.samplesMs.length})`,
      m.cpuSamplesMs ? formatMs(median(m.cpuSamplesMs)) : '-',
      formatRatio(ratio(ms, floorMs)),
      formatRatio(ratio(ms, oneShotMs)),
      pids ? String(pids.found) : '-',
      pids ? describeHolders(pids.missing) : '-',
      pids ? describeHolders(pids.extra) : '-',
    ];
  });
  return formatTextTable(
    [
      { header: 'tool' },
      { header: 'median ms', align: 'right' },
      { header: 'cpu ms', align: 'right' },
      { header: 'vs C floor', align: 'right' },
      { header: 'vs one-shot', align: 'right' },
      { header: 'PIDs', align: 'right' },
      { header: 'missing (expected holders)' },
      { header: 'extra (hold nothing under dir)' },
    ],
    body,
  );
}

export interface Claim {
  pass: boolean;
  text: string;
}

export function evaluateClaims(rows: BenchRows, holders: readonly FixtureHolder[]): Claim[] {
  const ms = (m: Measurement) => median(m.samplesMs);
  const claims: Claim[] = [];

  // Against the fastest of the three in each round (one run of each tool, in turn): the worst round decides.
  const peers = [rows.lsofDir, rows.lsofGrep, rows.fuser];
  const rounds = oneShotRounds(rows.oneShot, peers);
  const worst = rounds.reduce<OneShotRound | null>((w, r) => (w === null || r.ratio > w.ratio ? r : w), null);
  const fastest = peers.filter((m) => m.samplesMs.length > 0).reduce<Measurement | null>((best, m) => (best === null || ms(m) < ms(best) ? m : best), null);
  claims.push({
    pass: worst !== null && worst.ratio <= ONE_SHOT_MAX_PEER_RATIO,
    text:
      worst && fastest
        ? `one-shot CLI <= ${ONE_SHOT_MAX_PEER_RATIO}x the fastest of lsof +D, lsof | grep and fuser, every round: worst round ${formatRatio(worst.ratio)} (vs ${worst.peer}); ` +
          `per round min/median/max ${ratioSpread(rounds.map((r) => r.ratio))} (n=${rounds.length}); ms min/median/max ${spreadOf(rows.oneShot)} vs ${spreadOf(fastest)} (${fastest.tool}, fastest by median)` +
          cpuSpreads(rows.oneShot, fastest)
        : 'one-shot CLI against lsof and fuser: a tool did not run',
  });

  // Against the floor that gives the same answer (the fd-only floor misses mmap and exe holders);
  // the fd-only ratio is said beside it.
  const pollMs = ms(rows.warmPoll);
  const pollRatio = ratio(pollMs, ms(rows.answerFloor));
  claims.push({
    pass: pollRatio <= WARM_POLL_MAX_FLOOR_RATIO,
    text: `warm poll <= ${WARM_POLL_MAX_FLOOR_RATIO}x the C floor of the same answer: ${formatMs(pollMs)} ms vs ${formatMs(ms(rows.answerFloor))} ms = ${formatRatio(pollRatio)} (the fd-only floor's ${formatMs(ms(rows.floor))} ms: ${formatRatio(ratio(pollMs, ms(rows.floor)))})`,
  });

  // lsof | grep -F also matches "<dir>-other": those pids are its false positives, not holders missed.
  const noise = new Set(holders.filter((h) => h.role === 'noise').map((h) => h.pid));
  for (const holdwatch of [rows.oneShot, rows.warmPoll]) {
    const mine = holdwatch.pids ?? new Set<number>();
    const lsofSets = [rows.lsofDir, rows.lsofGrep].filter((m) => m.pids);
    const superset = lsofSets.length === 2 && lsofSets.every((m) => isSuperset(mine, m.pids!, noise));
    const missedByMe = lsofSets.flatMap((m) => [...m.pids!].filter((pid) => !noise.has(pid) && !mine.has(pid)));
    claims.push({
      pass: superset,
      text: `${holdwatch.tool} PIDs ⊇ lsof's (+D, and | grep minus ${noise.size} "-other" noise pids): ${
        lsofSets.length < 2 ? 'lsof did not run' : missedByMe.length === 0 ? 'yes' : `misses ${[...new Set(missedByMe)].join(' ')}`
      }`,
    });
  }

  const unlinked = holders.filter((h) => h.role === 'unlinked').map((h) => h.pid);
  const sees = (m: Measurement) => (m.pids ? (unlinked.every((pid) => m.pids!.has(pid)) ? 'finds it' : 'MISSES it') : 'did not run');
  claims.push({
    pass: rows.oneShot.pids !== null && unlinked.every((pid) => rows.oneShot.pids!.has(pid)),
    text: `unlinked-while-open holder (pid ${unlinked.join(' ')}): holdwatch ${sees(rows.oneShot)}; lsof +D ${sees(rows.lsofDir)}; fuser ${sees(rows.fuser)}; lsof | grep ${sees(rows.lsofGrep)}`,
  });

  const found = rows.oneShot.pids ? comparePids(rows.oneShot.pids, holders) : null;
  claims.push({
    pass: found !== null && found.missing.length === 0 && found.extra.length === 0,
    text: `holdwatch finds every fixture holder and nothing else: ${
      found ? `missing ${describeHolders(found.missing)}; extra ${describeHolders(found.extra)}` : 'did not run'
    }`,
  });
  return claims;
}

export interface OneShotRound {
  /** The one-shot's time over the fastest peer's in the same round. */
  ratio: number;
  /** That peer. */
  peer: string;
}

/**
 * The one-shot against the fastest peer of each round; none unless every peer ran. The tools run in turn,
 * one of each a round (external-tools.ts), so sample i of each is round i: a change in load hits a
 * round's tools alike.
 */
export function oneShotRounds(oneShot: Measurement, peers: readonly Measurement[]): OneShotRound[] {
  if (peers.some((p) => p.samplesMs.length === 0)) return [];
  const count = Math.min(oneShot.samplesMs.length, ...peers.map((p) => p.samplesMs.length));
  const rounds: OneShotRound[] = [];
  for (let i = 0; i < count; i++) {
    const fastest = peers.reduce((best, p) => (p.samplesMs[i]! < best.samplesMs[i]! ? p : best));
    rounds.push({ ratio: ratio(oneShot.samplesMs[i]!, fastest.samplesMs[i]!), peer: fastest.tool });
  }
  return rounds;
}

function ratioSpread(ratios: readonly number[]): string {
  return [Math.min(...ratios), median(ratios), Math.max(...ratios)].map(formatRatio).join('/');
}

export function formatClaims(claims: readonly Claim[]): string {
  return claims.map((c) => `${c.pass ? 'PASS' : 'MISS'}  ${c.text}`).join('\n');
}
