// The CLI's small things a new user runs into first: its version, the list of recorded runs, a report
// asked of a file that is no journal, and --kill-leftovers saying what it ended.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';

let scratch: string;
let data: string;
let watched: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-cli-small-'));
  data = join(scratch, 'data');
  watched = join(scratch, 'watched');
  mkdirSync(watched);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const env = () => ({ HOLDWATCH_DATA_DIR: data });

describe('holdwatch --version', () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect([result.code, result.stdout, result.stderr]).toEqual([0, `${version}\n`, '']);
    }
  });
});

describe('holdwatch runs', () => {
  it('says there are none, then lists each run newest first with its exit code; an unfinished journal says so', async () => {
    const none = await runCli(['runs'], { env: env() });
    expect([none.code, none.stdout]).toEqual([0, `no runs recorded in ${join(data, 'runs')}\n`]);
    const first = await runCli(['run', '--watch', watched, '--', 'sh', '-c', 'exit 3'], { env: env() });
    const second = await runCli(['run', '--watch', watched, '--', 'true'], { env: env() });
    expect([first.code, second.code]).toEqual([3, 0]);
    const idOf = (stderr: string) => /run (\S+):/.exec(stderr)![1]!;
    const [firstId, secondId] = [idOf(first.stderr), idOf(second.stderr)];
    // A run whose holdwatch stopped before its end: its journal has no run-end.
    const journal = readFileSync(join(data, 'runs', `${firstId}.jsonl`), 'utf8')
      .trimEnd()
      .split('\n');
    writeFileSync(join(data, 'runs', 'cut.jsonl'), journal.slice(0, -1).join('\n') + '\n');

    const listed = await runCli(['runs'], { env: env() });
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${secondId}  \\S+Z  exit 0 +  true$`));
    expect(
      lines
        .filter((l) => l.startsWith(`${firstId} `))
        .map((l) => /exit 3|unfinished/.exec(l)?.[0])
        .sort(),
    ).toEqual(['exit 3', 'unfinished']);
    const json = JSON.parse((await runCli(['runs', '--json'], { env: env() })).stdout) as { runId: string; exitCode: number | null; finished: boolean }[];
    expect(json.map((r) => [r.runId, r.exitCode, r.finished])).toContainEqual([secondId, 0, true]);
  }, 60_000);
});

describe('holdwatch report on a file that is no journal', () => {
  it('says it is not a journal, in one line, exit 2 (not "no such run")', async () => {
    const notes = join(scratch, 'notes.txt');
    writeFileSync(notes, 'meeting notes\n');
    const result = await runCli(['report', notes], { env: env() });
    expect([result.code, result.stderr]).toEqual([2, `holdwatch: not a holdwatch run journal: ${notes}\n`]);
  });
});

describe('holdwatch run --kill-leftovers', () => {
  it('says which process it ended and what it held', async () => {
    const held = join(watched, 'left.log');
    // A background sleep outlives the command, holding a file under the watched dir.
    const result = await runCli(['run', '--watch', watched, '--kill-leftovers', '--', 'sh', '-c', `sleep 30 3>${held} & sleep 0.5`], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^holdwatch: --kill-leftovers ended sleep \\(PID \\d+\\), which held ${held}$`, 'm'));
  }, 60_000);
});
