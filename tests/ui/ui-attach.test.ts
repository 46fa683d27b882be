// Attaching the UI session to a `holdwatch run` started in a terminal: the built CLI runs a real bats
// suite whose teardown fails; the session lists the run, attaches, and receives its tests, the holder
// and the failure as for a run it started. Detaching never touches the run; a run whose holdwatch is
// killed outright ends with a readable error and leaves the list.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../contract/runs.js';
import { RecentDirs } from '../../dist/host/recent-dirs.js';
import { HostSession } from '../../dist/host/session/host-session.js';
import { BLOCKED_SUITE as SUITE, endTerminalRuns, killTerminalRun, startTerminalRun } from '../support/terminal-run.js';

let scratch: string;
let session: HostSession;
const holderPids = new Set<number>();
const savedDataDir = process.env.HOLDWATCH_DATA_DIR;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-attach-'));
  process.env.HOLDWATCH_DATA_DIR = join(scratch, 'data'); // the session and the terminal runs share it
  session = new HostSession({
    recentDirs: new RecentDirs(join(scratch, 'recent.json')),
    ownPids: [process.pid],
    dataDir: join(scratch, 'data'),
    env: process.env,
    workingDirectory: process,
    onListenerError: (error) => process.stderr.write(`holdwatch test: a listener threw: ${String(error)}\n`),
  });
});

afterEach(() => {
  endTerminalRuns(holderPids); // the suite's detached holders outlive it by design
  holderPids.clear();
});

afterAll(async () => {
  await session.dispose();
  if (savedDataDir === undefined) delete process.env.HOLDWATCH_DATA_DIR;
  else process.env.HOLDWATCH_DATA_DIR = savedDataDir;
  rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

const terminalRun = (name: string) => startTerminalRun(join(scratch, name), join(scratch, 'data'));

async function listedRun(pid: number) {
  for (let i = 0; i < 200; i++) {
    const run = (await session.listActiveRuns()).find((r) => r.pid === pid);
    if (run) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`holdwatch run (pid ${pid}) was never listed`);
}

/** A terminal run, listed and attached to: its events from the first (the replayed history) on. */
async function attachedRun(name: string) {
  const run = terminalRun(name);
  const listed = await listedRun(run.child.pid!);
  const { events, ended } = eventsOf(listed.runId);
  await session.attachRun(listed.runId);
  return { run, listed, events, ended };
}

/** Every event of one run, and a promise of its end. */
function eventsOf(runId: string) {
  const events: RunEvent[] = [];
  let resolveEnded!: (e: Extract<RunEvent, { type: 'ended' }>) => void;
  const ended = new Promise<Extract<RunEvent, { type: 'ended' }>>((resolve) => (resolveEnded = resolve));
  const off = session.onRunEvent((id, event) => {
    if (id !== runId) return;
    events.push(event);
    if (event.type === 'ended') resolveEnded(event);
  });
  return { events, ended: ended.finally(off) };
}

/** For a failure message: the rows the run journaled (the summary line names its journal). */
function rowsOfJournal(summary: string): string {
  const path = /; journal (\S+\.jsonl)/.exec(summary)?.[1];
  if (!path || !existsSync(path)) return 'no journal named';
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /"t":"(appeared|probe-held|gc-closed)"/.test(line))
    .map((line) => JSON.parse(line) as { t: string; key: string });
  return rows.map(({ t, key }) => `${t} ${key}`).join('\n');
}

describe('HostSession: attaching to a terminal run', () => {
  it('lists the run, attaches, and receives its tests, the holder and the failure; the record stays for export', async () => {
    const { run, listed, events, ended } = await attachedRun('follow');
    expect(listed).toMatchObject({ command: ['bats', SUITE], cwd: join(scratch, 'follow'), watched: [run.work] });
    expect(events[0]).toMatchObject({ type: 'started', command: ['bats', SUITE] }); // the history, replayed at once
    run.go();

    const end = await ended;
    expect(await run.exited).toBe(1); // bats' own exit code, passed through to the terminal
    for (const h of end.record?.holders ?? []) holderPids.add(h.pid);
    expect(end).toMatchObject({ exitCode: 1, error: null });
    const tests = events.flatMap((e) => (e.type === 'test' && e.event.type === 'test-end' ? [[e.event.name, e.event.outcome]] : []));
    expect(tests).toEqual([
      ['leaves a holder behind', 'error'],
      ['a later test', 'passed'],
    ]);
    const failure = events.find((e) => e.type === 'failure');
    expect(failure?.type === 'failure' && failure.failure.text).toMatch(/rmdir: failed to remove .*work-1.*Directory not empty/);
    const held = join(run.work, 'work-1', 'held.log');
    expect(failure?.type === 'failure' && failure.failure.holders.map((h) => [h.path, h.attribution.verdict])).toEqual([[held, 'blocked-cleanup']]);
    expect(events.some((e) => e.type === 'holder' && e.change === 'appeared' && e.holder.path === held)).toBe(true);
    expect(end.record).toMatchObject({ runId: listed.runId, exitCode: 1 });
    expect(end.record?.endedAt).not.toBeNull(); // the run's own final record

    expect(await session.listActiveRuns()).toEqual([]);
    const md = await session.exportReport({ runId: listed.runId, format: 'md', redact: false });
    expect(md.text).toContain('held.log');
  }, 60_000);

  it('detaching stops following and leaves the terminal run to finish on its own', async () => {
    const { run, listed, ended } = await attachedRun('detach');
    await session.stopRun(listed.runId);
    const end = await ended;
    expect(end).toMatchObject({ exitCode: null, error: null });
    expect(end.record?.endedAt).toBeNull(); // detached: the record as it stood
    expect(run.child.exitCode).toBeNull(); // still running, never signalled
    run.go();
    expect(await run.exited).toBe(1);
    expect(run.stderr(), rowsOfJournal(run.stderr())).toMatch(/holdwatch: run \S+: 1 holder\(s\)/);
  }, 60_000);

  it('a run whose holdwatch is killed outright ends with a readable error and leaves the list', async () => {
    const { run, listed, ended } = await attachedRun('killed');
    killTerminalRun(run);
    const end = await ended;
    expect(end.error).toMatch(new RegExp(`holdwatch run \\(pid ${listed.pid}\\) stopped before it finished its record`));
    expect(end.record?.runId).toBe(listed.runId);
    expect(await session.listActiveRuns()).toEqual([]);
    expect(readdirSync(join(scratch, 'data', 'runs')).filter((n) => n.endsWith('.live.json'))).toEqual([]); // the stale marker is gone
    await expect(session.attachRun(listed.runId)).rejects.toThrow(/no run .* is going/);
    expect(existsSync(join(scratch, 'killed', 'work', 'work-1'))).toBe(false); // the suite never started
  }, 60_000);
});
