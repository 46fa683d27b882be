// The live-run markers with real processes: a marker lists its run while the process that wrote it
// lives; a dead or reused pid makes it stale (removed); a marker that is torn, or names a run other
// than its file's, is never listed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProcessSource } from '../../native/index.js';
import { LiveRunMarker, markRunListed } from './live-run-marker.js';
import { listLiveRuns, toActiveRun, type ListedRun } from './live-runs.js';

let runs: string;
const processes = await openProcessSource();
const processInfo = (pid: number) => processes.processInfo(pid);
const run = (runId: string, over: Partial<ListedRun> = {}): ListedRun => ({
  runId,
  command: ['pytest'],
  cwd: '/p',
  watched: ['/w'],
  startedAt: '2026-01-01T00:00:00.000Z',
  pid: process.pid,
  pidStartedAtMs: null,
  ...over,
});

beforeEach(() => {
  runs = mkdtempSync(join(tmpdir(), 'hw-live-runs-'));
});
afterEach(() => rmSync(runs, { recursive: true, force: true }));

describe('live-run markers', () => {
  it('lists a run while its holdwatch lives, newest first, and forgets it once closed', async () => {
    const older = new LiveRunMarker(runs, run('r-old', { startedAt: '2026-01-01T00:00:00.000Z' }));
    const newer = await markRunListed(
      runs,
      { runId: 'r-new', command: ['bats', 't'], cwd: '/p', watched: ['/w'], startedAt: '2026-01-02T00:00:00.000Z' },
      processInfo,
    );
    const listed = await listLiveRuns(runs, processInfo);
    expect(listed.map((r) => r.runId)).toEqual(['r-new', 'r-old']);
    expect(listed[0]!.pidStartedAtMs).toBe((await processInfo(process.pid))!.startedAtMs);
    expect(toActiveRun(listed[0]!)).toEqual({
      runId: 'r-new',
      command: ['bats', 't'],
      cwd: '/p',
      watched: ['/w'],
      startedAt: '2026-01-02T00:00:00.000Z',
      pid: process.pid,
    });
    newer.close();
    newer.close(); // idempotent
    older.close();
    expect(await listLiveRuns(runs, processInfo)).toEqual([]);
    expect(readdirSync(runs)).toEqual([]);
  });

  it('removes the marker of a holdwatch that is gone, or whose pid now belongs to another process', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    new LiveRunMarker(runs, run('r-dead', { pid: child.pid! }));
    const self = (await processInfo(process.pid))!;
    new LiveRunMarker(runs, run('r-reused', { pidStartedAtMs: self.startedAtMs - 60_000 }));
    expect(await listLiveRuns(runs, processInfo)).toEqual([]);
    expect(readdirSync(runs)).toEqual([]);
  });

  it('never lists a torn marker or one naming another run than its file (it is not removed either)', async () => {
    writeFileSync(join(runs, 'r-torn.live.json'), '{"runId":"r-torn","comm');
    writeFileSync(join(runs, 'r-file.live.json'), JSON.stringify(run('../../elsewhere')));
    expect(await listLiveRuns(runs, processInfo)).toEqual([]);
    expect(existsSync(join(runs, 'r-torn.live.json'))).toBe(true); // may be mid-write: left alone
  });

  it('lists nothing where no run was ever recorded', async () => {
    expect(await listLiveRuns(join(runs, 'missing'), processInfo)).toEqual([]);
  });
});
