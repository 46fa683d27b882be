// The UI session as both hosts use it (built, as shipped), with real processes: readable refusals
// for bad runs, ending a process only by its identity and never holdwatch itself, exports of a run.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../core/api.js';
import { RecentDirs } from '../../dist/cli/ui-recent-dirs.js';
import { UiSession } from '../../dist/cli/ui-session.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

let scratch: string;
let session: UiSession;
const savedDataDir = process.env.HOLDWATCH_DATA_DIR;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-session-'));
  mkdirSync(join(scratch, 'watched'));
  process.env.HOLDWATCH_DATA_DIR = join(scratch, 'data'); // run journals go here, not in the user's data dir
  session = new UiSession({ recentDirs: new RecentDirs(join(scratch, 'data', 'recent.json')), ownPids: [process.pid] });
});

afterAll(async () => {
  await session.dispose();
  await killAllHolders();
  if (savedDataDir === undefined) delete process.env.HOLDWATCH_DATA_DIR;
  else process.env.HOLDWATCH_DATA_DIR = savedDataDir;
  rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

describe('UiSession', () => {
  it('refuses a run whose command does not exist or whose working directory is missing, readably', async () => {
    const dirs = [join(scratch, 'watched')];
    await expect(session.startRun({ command: ['no-such-runner-xyz'], cwd: scratch, dirs })).rejects.toThrow('command not found: no-such-runner-xyz');
    await expect(session.startRun({ command: ['true'], cwd: join(scratch, 'nope'), dirs })).rejects.toThrow(/working directory .* does not exist/);
    await expect(session.startRun({ command: ['true'], cwd: scratch, dirs: [join(scratch, 'missing')] })).rejects.toThrow(/no such directory/);
  });

  it('never ends holdwatch itself, and ends a process only by (pid, start time)', async () => {
    const self = await session.getProcessDetails(process.pid);
    expect(self?.endRefusal).toBe('this is holdwatch itself');
    await expect(session.endProcess({ pid: process.pid, startedAtMs: self!.process.startedAtMs })).rejects.toThrow(/will not end .*holdwatch itself/);
    await expect(session.endProcess({ pid: 1, startedAtMs: (await session.getProcessDetails(1))!.process.startedAtMs })).rejects.toThrow(/will not end process 1/);

    const holder = await pythonHoldingFile(join(scratch, 'watched', 'held.log'));
    const details = await session.getProcessDetails(holder.pid);
    expect(details).toMatchObject({ endRefusal: null, process: { pid: holder.pid, name: 'python3' } });
    expect(details!.ancestry[0]!.pid).toBe(process.pid); // its parent: this test process
    // A pid reused by another process (another start time) is refused, not killed.
    await expect(session.endProcess({ pid: holder.pid, startedAtMs: details!.process.startedAtMs - 60_000 })).rejects.toThrow(/already exited/);
    const exited = new Promise((resolve) => holder.child.once('exit', (_code, signal) => resolve(signal)));
    await session.endProcess({ pid: holder.pid, startedAtMs: details!.process.startedAtMs });
    await expect(exited).resolves.toBe('SIGTERM');
  });

  it('runs a command with its output captured, sends its events, and exports the run', async () => {
    const events: RunEvent['type'][] = [];
    let output = '';
    const ended = new Promise<void>((resolve) =>
      session.onRunEvent((_runId, event) => {
        events.push(event.type);
        if (event.type === 'output') output += event.text;
        if (event.type === 'ended') resolve();
      }),
    );
    const { runId } = await session.startRun({ command: ['sh', '-c', 'echo "hello $GREETING"; exit 3'], cwd: scratch, dirs: [join(scratch, 'watched')], env: { GREETING: 'from the UI' } });
    await ended;
    expect(output).toBe('hello from the UI\n');
    expect(events[0]).toBe('started');
    expect(events.at(-1)).toBe('ended');
    const md = await session.exportReport({ runId, format: 'md', redact: false });
    expect(md).toMatchObject({ fileName: `holdwatch-${runId}.md`, mimeType: 'text/markdown' });
    expect(md.text).toContain('sh -c');
    const json = await session.exportReport({ runId, format: 'json', redact: false });
    expect(JSON.parse(json.text)).toMatchObject({ runId, exitCode: 3 });
    await expect(session.exportReport({ runId: 'nope', format: 'md', redact: false })).rejects.toThrow('no run nope in this session');
    expect(await session.listRecentDirs()).toContain(join(scratch, 'watched'));
  });
});
