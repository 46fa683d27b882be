// What holdwatch keeps is the user's alone (shared/reviews/reliability.md D7): the data dir's runs,
// journals, probe logs and events files, and the reports, whatever the umask; and `--redact` reports
// carry no secret a command line showed.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let scratch: string;
const mode = (path: string) => statSync(path).mode & 0o777;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-private-'));
  mkdirSync(join(scratch, 'watched'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the data holdwatch keeps', () => {
  it('runs/, journals, probe logs, events and reports are 0700/0600 under umask 022, and --redact masks argv and env secrets', async () => {
    const data = join(scratch, 'data');
    const out = (name: string) => join(scratch, name);
    const held = join(scratch, 'watched', 'held.txt');
    // A python test that holds a file and whose argv and environment carry secrets.
    const run = await runCli(
      [
        'run',
        '--watch',
        join(scratch, 'watched'),
        '--redact',
        '--report',
        out('r.md'),
        '--json',
        out('r.json'),
        '--html',
        out('r.html'),
        '--',
        'sh',
        '-c',
        `umask 022; GITHUB_TOKEN=ghs_ENVSECRET1234 python3 -c "import time; f = open('${held}', 'w'); time.sleep(0.6)" --password=hunter2 --token=ghp_ARGVSECRET`,
      ],
      { env: { HOLDWATCH_DATA_DIR: data } },
    );
    expect(run.code, run.stderr).toBe(0);

    const runs = join(data, 'runs');
    expect(mode(runs)).toBe(0o700);
    const files = readdirSync(runs);
    const journal = files.find((f) => /^\d{8}T\d{6}-[0-9a-f]{16}\.jsonl$/.test(f))!;
    expect(journal).toBeDefined();
    expect(mode(join(runs, journal))).toBe(0o600);
    expect(mode(join(runs, journal.replace('.jsonl', '.events.jsonl')))).toBe(0o600);
    expect(mode(join(runs, journal.replace('.jsonl', '.probes')))).toBe(0o700);
    for (const report of ['r.md', 'r.json', 'r.html']) expect(mode(out(report)), report).toBe(0o600);

    // The journal (private) keeps the command as it was; the redacted reports carry none of its secrets.
    expect(readFileSync(join(runs, journal), 'utf8')).toContain('hunter2');
    for (const report of ['r.md', 'r.json', 'r.html']) {
      const text = readFileSync(out(report), 'utf8');
      expect(text, report).toContain('held.txt');
      for (const secret of ['hunter2', 'ghp_ARGVSECRET', 'ghs_ENVSECRET1234']) expect(text.includes(secret), `${secret} in ${report}`).toBe(false);
    }
  }, 60_000);
});
