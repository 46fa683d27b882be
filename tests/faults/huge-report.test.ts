// A run of 150,000 tests rendered again from its journal (reliability-2.md F4: the HTML report spread
// every test's time into Math.min and crashed above ~62k tests). Each format renders, in one piece.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const TESTS = 150_000;
let scratch: string;
let journal: string;

/** A journal as `holdwatch run` writes it for a suite of `TESTS` passing tests, 1 ms each. */
function writeJournal(path: string): void {
  const startMs = Date.parse('2026-12-01T10:00:00Z');
  const id = '20261201T100000-0123456789abcdef';
  const lines = [
    {
      t: 'run-start',
      runId: id,
      command: ['pytest'],
      cwd: '/w',
      watched: ['/w'],
      platform: 'linux',
      atMs: startMs,
      versions: { holdwatch: '0.1.0', node: 'v24', os: 'linux' },
    },
  ];
  for (let i = 0; i < TESTS; i++) {
    const name = `test_many.py::test_${i}`;
    lines.push({ t: 'test', event: { type: 'test-start', name, atMs: startMs + i, inTestProcess: true } } as never);
    lines.push({ t: 'test', event: { type: 'test-end', name, atMs: startMs + i + 1, outcome: 'passed', inTestProcess: true } } as never);
  }
  lines.push({ t: 'command-exit', atMs: startMs + TESTS + 1, exitCode: 0 } as never);
  lines.push({ t: 'run-end', atMs: startMs + TESTS + 2, exitCode: 0, lastSeen: {} } as never);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-huge-report-'));
  journal = join(scratch, 'many.jsonl');
  writeJournal(journal);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe(`a recorded run of ${TESTS.toLocaleString('en')} tests`, () => {
  it.each(['html', 'md', 'json'])(
    'renders as %s',
    async (format) => {
      const out = await runCli(['report', journal, '--format', format]);
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      if (format === 'json') expect((JSON.parse(out.stdout) as { tests: unknown[] }).tests).toHaveLength(TESTS);
      if (format === 'html') expect(out.stdout).toMatch(/… and \d+ more tests/);
    },
    120_000,
  );
});
