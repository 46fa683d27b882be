// A run's process met holding something before it exec'd (a shell's child between fork and exec, a
// launcher that execs its program) keeps its pid, start time and fds but not its name or command
// line: the journal and the record follow it to what it runs now, as the same holding.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJournal, type JournalEntry } from '../../contract/journal.js';
import type { RunRecord } from '../../contract/runs.js';
import { runCli } from '../support/cli.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'hw-run-exec-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The one journal in `dataDir`. */
function journalPath(dataDir: string): string | undefined {
  const runs = join(dataDir, 'runs');
  let names: string[];
  try {
    names = readdirSync(runs);
  } catch {
    return undefined;
  }
  const name = names.find((n) => n.endsWith('.jsonl') && !n.endsWith('.events.jsonl'));
  return name === undefined ? undefined : join(runs, name);
}

/** The journal's entries so far (its last line may be half written, and is then left out). */
function journalEntries(dataDir: string): JournalEntry[] {
  const path = journalPath(dataDir);
  return path === undefined ? [] : parseJournal(readFileSync(path, 'utf8').split('\n')).entries;
}

async function journalSays(dataDir: string, test: (entry: JournalEntry) => boolean): Promise<void> {
  await expect.poll(() => journalEntries(dataDir).some(test), { timeout: 15_000, interval: 50 }).toBe(true);
}

const appearedAt = (path: string) => (e: JournalEntry) => e.t === 'appeared' && e.holder.path === path;

describe('holdwatch run, a command met before it execs', () => {
  it('journals the change; the record, live and folded again, names what it runs now, in one row', async () => {
    const watched = mkdtempSync(join(scratch, 'run-watched-'));
    const dataDir = mkdtempSync(join(scratch, 'run-data-'));
    // Two fifos: with one, sh could open it while the first cue's writer still had it open, and read
    // that writer's close as its own end.
    const cues = mkdtempSync(join(scratch, 'run-cue-'));
    const execCue = join(cues, 'exec');
    const endCue = join(cues, 'end');
    execFileSync('mkfifo', [execCue, endCue]);
    const held = join(watched, 'held.txt');
    const after = join(watched, 'after.txt');
    // python3 holds held.txt across its exec into sh; sh then opens after.txt, whose sighting shows a
    // scan met it after the exec, and waits for its own cue to end.
    const script = [
      'import os, sys',
      'fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND)',
      'os.set_inheritable(fd, True)',
      'with open(sys.argv[3]) as cue: cue.readline()',
      `os.execv("/bin/sh", ["sh", "-c", 'exec 9>>"$0"; read x < "$1"', sys.argv[2], sys.argv[4]])`,
    ].join('\n');
    const recordPath = join(dataDir, 'record.json');
    const run = runCli(['run', '--watch', watched, '--json', recordPath, '--', SYSTEM_PYTHON, '-c', script, held, after, execCue, endCue], {
      env: { HOLDWATCH_DATA_DIR: dataDir },
    });
    await journalSays(dataDir, appearedAt(held));
    await writeFile(execCue, 'exec\n');
    await journalSays(dataDir, appearedAt(after));
    await writeFile(endCue, 'end\n');
    const result = await run;
    expect(result.code, result.stderr).toBe(0);

    const entries = journalEntries(dataDir);
    const first = entries.find(appearedAt(held));
    expect(first?.t === 'appeared' && first.holder.processName).toBe('python3');
    const changed = entries.flatMap((e) => (e.t === 'changed' ? [[e.holder.path, e.holder.processName]] : []));
    expect(changed).toEqual([[held, 'sh']]);

    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as RunRecord;
    const rows = record.holders.filter((h) => h.path === held);
    expect(rows.map((h) => h.processName)).toEqual(['sh']);
    expect(rows[0]!.commandLine).toContain('exec 9>>');
    expect(rows[0]!.attribution.ancestry[0]).toMatchObject({ name: 'sh' });

    const again = await runCli(['report', journalPath(dataDir)!, '--format', 'json']);
    const replayed = JSON.parse(again.stdout) as RunRecord;
    expect(replayed.holders.filter((h) => h.path === held).map((h) => [h.processName, h.attribution.ancestry[0]?.name])).toEqual([['sh', 'sh']]);
  });
});
