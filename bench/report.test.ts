import { describe, expect, it } from 'vitest';
import type { FixtureHolder } from './fixture.js';
import type { Measurement } from './measurement.js';
import { evaluateClaims, formatBenchTable, type BenchRows } from './report.js';

const holders: FixtureHolder[] = [
  { pid: 10, role: 'files' },
  { pid: 13, role: 'unlinked' },
  { pid: 20, role: 'noise' },
];

const m = (tool: string, samplesMs: number[], pids: number[]): Measurement => ({ tool, samplesMs, pids: new Set(pids) });

function rows(overrides: Partial<BenchRows> = {}): BenchRows {
  return {
    floor: m('floor', [50, 50, 50], [10]),
    answerFloor: m('answer floor', [55], [10, 13]),
    oneShot: m('one-shot', [90], [10, 13]),
    warmPoll: m('poll', [70], [10, 13]),
    lsofDir: m('lsof +D', [400], [10]),
    lsofGrep: m('lsof | grep', [300], [10, 13, 20]),
    fuser: m('fuser', [100], [10]),
    others: [],
    ...overrides,
  };
}

describe('evaluateClaims', () => {
  it('passes every claim when holdwatch takes at most 0.9x the fastest peer, within 1.3x of the same-answer floor and sees what lsof sees', () => {
    const claims = evaluateClaims(rows(), holders);
    expect(claims.map((c) => c.pass)).toEqual([true, true, true, true, true, true]);
    expect(claims[4]!.text).toContain('lsof +D MISSES it; fuser MISSES it; lsof | grep finds it');
  });
  it('misses the speed claims when one-shot takes more than 0.9x the fastest peer (fuser) or the poll more than 1.3x the same-answer floor', () => {
    const claims = evaluateClaims(rows({ fuser: m('fuser', [99], [10]), warmPoll: m('poll', [72.6], [10, 13]) }), holders);
    expect(claims[0]!.pass).toBe(false);
    expect(claims[0]!.text).toContain('every round: worst round 0.91x (vs fuser)');
    expect(claims[1]!.pass).toBe(false);
    expect(claims[1]!.text).toContain('= 1.32x (the fd-only floor');
  });
  it('misses the superset claim when lsof found a real holder holdwatch did not', () => {
    const claims = evaluateClaims(rows({ oneShot: m('one-shot', [200], [13]) }), holders);
    expect(claims[2]!.pass).toBe(false);
    expect(claims[2]!.text).toContain('misses 10');
    expect(claims[5]!.pass).toBe(false);
  });
});

describe('evaluateClaims, one-shot against its peers', () => {
  it('gives the CPU each used beside the wall times, min/median/max', () => {
    const withCpu = (tool: string, samplesMs: number[], cpuSamplesMs: number[]): Measurement => ({ ...m(tool, samplesMs, [10, 13]), cpuSamplesMs });
    const claims = evaluateClaims(rows({ oneShot: withCpu('one-shot', [90], [40, 50, 70]), fuser: withCpu('fuser', [100], [60, 80, 90]) }), holders);
    expect(claims[0]!.text).toContain('; CPU ms min/median/max 40.0/50.0/70.0 vs 60.0/80.0/90.0');
  });

  it('judges each round against its own fastest peer, and misses by the worst round though the medians pass', () => {
    const claims = evaluateClaims(
      rows({
        oneShot: m('one-shot', [80, 80, 80, 120], [10, 13]),
        lsofDir: m('lsof +D', [400, 400, 90, 400], [10]),
        lsofGrep: m('lsof | grep', [300, 300, 300, 300], [10, 13, 20]),
        fuser: m('fuser', [100, 100, 200, 125], [10]),
      }),
      holders,
    );
    expect(claims[0]!.pass).toBe(false);
    expect(claims[0]!.text).toContain('worst round 0.96x (vs fuser); per round min/median/max 0.80x/0.84x/0.96x (n=4)');
    expect(claims[0]!.text).toContain('vs 100/113/200 (fuser, fastest by median)');
    const quicker = evaluateClaims(rows({ oneShot: m('one-shot', [80, 80, 80, 100], [10, 13]), fuser: m('fuser', [100, 100, 200, 125], [10]) }), holders);
    expect(quicker[0]!.pass).toBe(true);
  });

  it('misses when a peer did not run: the fastest of three is not known', () => {
    const claims = evaluateClaims(rows({ lsofGrep: { tool: 'lsof | grep', samplesMs: [], pids: null, note: 'failed: exit 2' } }), holders);
    expect(claims[0]!.pass).toBe(false);
  });
});

describe('formatBenchTable', () => {
  it('shows the ratios against the floor and the one-shot CLI, and what each tool missed', () => {
    const text = formatBenchTable(rows(), holders);
    const lsofLine = text.split('\n').find((line) => line.startsWith('lsof +D'))!;
    expect(lsofLine).toMatch(/400 \(n=1\)\s+-\s+8\.00x\s+4\.44x\s+1\s+unlinked 13\s+none/);
    const grepLine = text.split('\n').find((line) => line.startsWith('lsof | grep'))!;
    expect(grepLine).toMatch(/noise 20$/);
  });
});
