// Retention of recorded runs (reliability-2.md F9): a journal, an events file and a probes dir per run,
// never removed. `holdwatch runs --prune` removes runs beyond the newest --keep and older than
// --max-age days, all of a run's files together, never a run still going; `holdwatch run` applies the
// defaults (200 runs, 30 days) at each run, once its command has started.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const DAY_S = 86_400;
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-retention-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A recorded run's files, last written `daysAgo` days ago; `livePid`: a live marker naming that process. */
function plantRun(runs: string, id: string, daysAgo: number, livePid?: number): void {
  const files = [`${id}.jsonl`, `${id}.events.jsonl`];
  writeFileSync(join(runs, `${id}.jsonl`), `${JSON.stringify({ t: 'run-start', runId: id, atMs: 0, command: ['true'] })}\n`);
  writeFileSync(join(runs, `${id}.events.jsonl`), '');
  mkdirSync(join(runs, `${id}.probes`));
  writeFileSync(join(runs, `${id}.probes`, 'stacks-1.jsonl'), '');
  if (livePid !== undefined) {
    writeFileSync(join(runs, `${id}.live.json`), JSON.stringify({ runId: id, pid: livePid }));
    files.push(`${id}.live.json`);
  }
  const at = Date.now() / 1000 - daysAgo * DAY_S;
  for (const name of [...files, `${id}.probes/stacks-1.jsonl`, `${id}.probes`]) utimesSync(join(runs, name), at, at);
}

const idsIn = (runs: string) => [...new Set(readdirSync(runs).map((n) => n.replace(/\..*$/, '')))].sort();

describe('holdwatch runs --prune', () => {
  it('keeps the newest --keep runs younger than --max-age, and a run still going; removes the rest whole', async () => {
    const data = join(scratch, 'data');
    const runs = join(data, 'runs');
    mkdirSync(runs, { recursive: true, mode: 0o700 });
    plantRun(runs, '20260101T000000-aaaaa1', 1);
    plantRun(runs, '20260101T000000-aaaaa2', 2);
    plantRun(runs, '20260101T000000-aaaaa3', 3);
    plantRun(runs, '20260101T000000-01d001', 40);
    plantRun(runs, '20260101T000000-11fe01', 50, process.pid);
    const pruned = await runCli(['runs', '--prune', '--keep', '2', '--max-age', '30'], { env: { HOLDWATCH_DATA_DIR: data } });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(/^removed 2 run\(s\) from /);
    expect(idsIn(runs)).toEqual(['20260101T000000-11fe01', '20260101T000000-aaaaa1', '20260101T000000-aaaaa2']);
    expect(existsSync(join(runs, '20260101T000000-aaaaa3.probes'))).toBe(false);
  });

  it('refuses a limit that is not a whole number, and a limit without --prune', async () => {
    const env = { HOLDWATCH_DATA_DIR: join(scratch, 'data') };
    expect(await runCli(['runs', '--prune', '--keep', 'ten'], { env })).toMatchObject({
      code: 2,
      stderr: 'holdwatch: --keep expects a whole number, got "ten"\n',
    });
    expect(await runCli(['runs', '--max-age', '3'], { env })).toMatchObject({ code: 2, stderr: 'holdwatch: --keep and --max-age go with --prune\n' });
  });
});

describe('holdwatch run', () => {
  it('removes runs older than 30 days, never its own', async () => {
    const data = join(scratch, 'run-data');
    const runs = join(data, 'runs');
    mkdirSync(join(scratch, 'watched'), { recursive: true });
    mkdirSync(runs, { recursive: true, mode: 0o700 });
    plantRun(runs, '20250101T000000-01d002', 31);
    plantRun(runs, '20250101T000000-f4e5a1', 29);
    const run = await runCli(['run', '--watch', join(scratch, 'watched'), '--', 'true'], { env: { HOLDWATCH_DATA_DIR: data } });
    expect(run.code, run.stderr).toBe(0);
    const ids = idsIn(runs);
    expect(ids).not.toContain('20250101T000000-01d002');
    expect(ids).toContain('20250101T000000-f4e5a1');
    expect(ids).toHaveLength(2);
  });
});
