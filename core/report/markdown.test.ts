import { describe, expect, it } from 'vitest';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import { batsWithShortLivedFiles, loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { renderMarkdown } from './markdown.js';

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/** A section by its title, as a heading or as a folded <details> summary, up to the next section. */
function section(markdown: string, title: string): string {
  const heading = markdown.indexOf(`#### ${title}`);
  const start = heading >= 0 ? heading : markdown.indexOf(`<details><summary><strong>${title}`);
  if (start < 0) return '';
  const ends = ['\n#### ', '\n<details>'].map((m) => markdown.indexOf(m, start + 1)).filter((i) => i >= 0);
  return markdown.slice(start, ends.length > 0 ? Math.min(...ends) : undefined);
}

describe('renderMarkdown headline', () => {
  it('names the failed teardown, the holder of the failed path and the test that spawned it', () => {
    expect(firstLine(renderMarkdown(loadRunRecord('pytest-winerror32')))).toBe(
      '**Teardown of `tests/test_bridge.py::test_shutdown` failed (WinError 32): `python.exe` PID 4312, spawned by `tests/test_bridge.py::test_start`, still held `bridge0\\demo.nd` (and 2 more holders)**',
    );
  });

  it('uses the errno name on Linux', () => {
    expect(firstLine(renderMarkdown(loadRunRecord('bats-teardown-failed')))).toBe(
      '**Teardown of `daemon writes a heartbeat every 100 ms` failed (ENOTEMPTY): `bash` PID 5123, spawned by `daemon writes a heartbeat every 100 ms`, still held `test/2/work` (and 1 more holder)**',
    );
  });

  it("names Node's EBUSY on Windows by its name, not as a Win32 code", () => {
    const record = loadRunRecord('pytest-winerror32');
    const ebusy: RunRecord = { ...record, failures: record.failures.map((f) => ({ ...f, kind: 'busy', code: 16 })) };
    expect(firstLine(renderMarkdown(ebusy))).toMatch(/^\*\*Teardown of `tests\/test_bridge.py::test_shutdown` failed \(EBUSY\): /);
  });

  it('predicts the Windows failure when holders only leaked past their test', () => {
    expect(firstLine(renderMarkdown(loadRunRecord('linux-leaked-past-test')))).toBe(
      '**No teardown failed, but `python3` PID 7044 still held `index.sqlite` after `tests/test_store.py::test_writes_index` ended (and 3 more handles outlived their test): on Windows, that cleanup would fail with WinError 32**',
    );
  });

  it('says a clean run is clean', () => {
    expect(firstLine(renderMarkdown(loadRunRecord('clean')))).toBe('**No teardown failed and no handle outlived its test (3 tests, exit code 0)**');
  });

  it('says so when the scan at the failure found no holder', () => {
    const record = loadRunRecord('bats-teardown-failed');
    record.failures[0]!.holders = [];
    record.holders = [];
    expect(firstLine(renderMarkdown(record))).toBe(
      '**Teardown of `daemon writes a heartbeat every 100 ms` failed (ENOTEMPTY) on `test/2/work`; the scan taken at that moment found no holder under the watched dirs**',
    );
  });
});

describe('renderMarkdown sections', () => {
  it('lists holders with relative paths, verdicts and the tests they came from', () => {
    const holders = section(renderMarkdown(loadRunRecord('pytest-winerror32')), 'Holders');
    // Four columns at an issue's width: what, who, which test, verdict.
    expect(holders).toContain('| Path | Process (PID) | Opened during | Verdict |');
    expect(holders).toContain('| `bridge0\\demo.nd` | `python.exe` 4312 | `tests/test_bridge.py::test_start` | **blocked-cleanup** |');
    // Outside the run, yet holding the path the cleanup failed on: it stays with the run's rows.
    expect(holders).toContain('| `bridge0\\demo.nd` | `MsMpEng.exe` 3120 | `tests/test_bridge.py::test_shutdown` | **outside-run** |');
    // Worst verdict first: the outsider comes last.
    expect(holders.indexOf('MsMpEng.exe')).toBeGreaterThan(holders.lastIndexOf('python.exe'));
  });

  it('marks a deleted-while-open path', () => {
    expect(section(renderMarkdown(loadRunRecord('linux-leaked-past-test')), 'Holders')).toContain('`compact.lock (deleted)`');
  });

  it('shows the ancestry runner first, indented, and says when the holder was reparented', () => {
    const ancestry = section(renderMarkdown(loadRunRecord('bats-teardown-failed')), 'Ancestry');
    expect(ancestry).toContain('- `bash` PID 5123 (2 paths, blocked-cleanup): its parent PID 5101 exited (now PID 1); chain as recorded when first seen');
    const chain = ancestry.split('\n').filter((l) => /^ +- /.test(l));
    expect(chain.map((l) => /^( +)- `([^`]+)` (\d+)/.exec(l)?.slice(1))).toEqual([
      ['  ', 'bats', '5050'],
      ['    ', 'bash', '5101'],
      ['      ', 'bash', '5123'],
    ]);
  });

  it("says where the chain jumps: the holder's parent left before holdwatch listed it, and the chain resumes at its test's process", () => {
    const record = loadRunRecord('bats-teardown-failed');
    for (const h of record.holders.filter((x) => x.pid === 5123)) {
      const [self, testProcess, ...rest] = h.attribution.ancestry;
      h.attribution.ancestry = [self!, { ...testProcess!, gapBelow: true }, ...rest];
    }
    const ancestry = section(renderMarkdown(record), 'Ancestry');
    expect(ancestry).toContain(
      "- `bash` PID 5123 (2 paths, blocked-cleanup): its parent exited before holdwatch listed it (now PID 1); the chain resumes at its test's process PID 5101",
    );
    expect(ancestry.split('\n').find((l) => l.includes('`bash` 5101'))).toMatch(/\(… processes between exited before holdwatch listed them\)$/);
  });

  it('says plainly that the body passed and the teardown failed', () => {
    const timeline = section(renderMarkdown(loadRunRecord('bats-teardown-failed')), 'Timeline');
    const row = timeline.split('\n').find((l) => l.includes('daemon writes a heartbeat'));
    expect(row).toContain('| failed (setup passed · call passed · teardown failed) |');
    expect(row).toContain('body passed, teardown failed');
    expect(row).toContain('ENOTEMPTY at +2.46 s');
    // A test with nothing to say is counted, not drawn.
    expect(timeline).not.toContain('daemon stops on SIGTERM');
    expect(timeline).toMatch(/The other \d+ tests?: passed or skipped, nothing to note\./);
  });

  it('groups leftovers by the test during which they appeared, in test order', () => {
    const leftovers = section(renderMarkdown(loadRunRecord('linux-leaked-past-test')), 'Leftover files');
    const groups = leftovers.split('\n').filter((l) => l.startsWith('- during'));
    expect(groups).toEqual([
      '- during `tests/test_store.py::test_open_creates_index` (1):',
      '- during `tests/test_store.py::test_writes_index` (2):',
      '- during `tests/test_search.py::test_query` (2):',
      '- during `tests/test_search.py::test_ranking` (1):',
    ]);
    expect(leftovers).toContain('  - `tmp/q-0002.json`');
  });

  it('gives a reproduce command quoted for the shell, and the platform and versions', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    record.command = ['python3', '-m', 'pytest', '-k', "store and not 'slow'"];
    const markdown = renderMarkdown(record);
    expect(section(markdown, 'Reproduce')).toContain(
      `cd /home/bob/src/notes && holdwatch run --watch /home/bob/src/notes/.store -- python3 -m pytest -k 'store and not '\\''slow'\\'''`,
    );
    const platform = section(markdown, 'Platform');
    expect(platform).toContain('| Platform | linux, `Debian GNU/Linux 12 (bookworm), Linux 6.1.0-18-amd64` |');
    expect(platform).toContain('| Node.js | `v20.19.2` |');
  });

  it('leaves out what the run does not have', () => {
    const markdown = renderMarkdown(loadRunRecord('clean'));
    for (const title of ['Teardown failures', 'Holders', 'Ancestry', 'Leftover files', 'Outlived the run']) expect(section(markdown, title)).toBe('');
    expect(section(markdown, 'Timeline')).toContain('All 3 tests: passed or skipped, nothing to note.');
  });
});

describe('renderMarkdown with hostile and large input', () => {
  it('keeps pipes, backticks and newlines in a path inside their table cell', () => {
    const record = loadRunRecord('bats-teardown-failed');
    const evil = `/tmp/bats-run-Vq3k/a|b\`c\nd`;
    record.holders[1]!.path = evil;
    const rows = section(renderMarkdown(record), 'Holders')
      .split('\n')
      .filter((l) => l.startsWith('| ') && l.includes('`bash` '));
    const row = rows.find((l) => l.includes('a\\|b')) ?? '';
    expect(row).toContain('``a\\|b`c ⏎ d``');
    // Four cells: unescaped pipes are exactly the five borders.
    expect(row.replace(/\\\|/g, '').split('|').length - 1).toBe(5);
  });

  it('caps 500 holders at the row limit with a line saying how many more', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const template = record.holders[0]!;
    record.holders = Array.from({ length: 500 }, (_, i): AttributedHolder => ({ ...template, pid: 10_000 + i, path: `${template.watchedDir}/f${i}` }));
    const markdown = renderMarkdown(record, { maxRows: 40 });
    const holders = section(markdown, 'Holders');
    expect(holders.split('\n').filter((l) => l.includes('| `python3` '))).toHaveLength(40);
    expect(holders).toContain('… and 460 more holders (the JSON report has all of them)');
    const ancestry = section(markdown, 'Ancestry');
    expect(ancestry.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(20);
    expect(ancestry).toContain('… and 480 more processes');
    expect(markdown.length).toBeLessThan(40_000);
  });

  it("folds a shell loop's short-lived files into one row per process and folder, never a blocker", () => {
    const record = batsWithShortLivedFiles(117);
    const holders = section(renderMarkdown(record), 'Holders');
    expect(holders).toContain('117 short-lived files (each closed again within its test) are folded into 1 row');
    expect(holders).toMatch(/\| `test\/2\/work\/` 117 short-lived files \| `bash` 5123 \| [^|]+ \| \*\*in-run\*\* \|/);
    expect(holders).not.toContain('doc5.idx');
    // The blocker of the failure keeps its own row.
    expect(holders).toMatch(/\| `test\/2\/work`( \(\w+\))? \| `bash` 5123 \| [^|]+ \| \*\*blocked-cleanup\*\*/);
  });

  it('caps leftovers across many folders and tests', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    record.leftovers = Array.from({ length: 3000 }, (_, i) => ({
      path: `${record.watched[0]}/d${String(i % 60).padStart(2, '0')}/blob-${i}`,
      createdDuring: i < 2900 ? null : record.tests[i % 6]!.name,
    }));
    const leftovers = section(renderMarkdown(record, { maxRows: 30 }), 'Leftover files');
    expect(leftovers).toContain('- before the first test (2900):');
    expect(leftovers).toMatch(/  - … and \d+ more folders/);
    expect(leftovers).toMatch(/… and \d+ more tests with leftovers/);
    expect(leftovers.split('\n').length).toBeLessThan(45);
  });

  it('says which test had ended when a leftover appeared between tests, and lists it behind that test', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const [first, second] = record.tests.map((t) => t.name);
    record.leftovers = [
      { path: `${record.watched[0]}/late/a`, createdDuring: null, createdAfter: first! },
      { path: `${record.watched[0]}/early`, createdDuring: null },
      { path: `${record.watched[0]}/during`, createdDuring: second! },
    ];
    const lines = section(renderMarkdown(record), 'Leftover files')
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(lines).toEqual(['- before the first test (1):', `- after \`${first}\` ended, while no test ran (1):`, `- during \`${second}\` (1):`]);
  });

  it('caps leftovers per test and in total', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    record.leftovers = Array.from({ length: 300 }, (_, i) => ({
      path: `${record.watched[0]}/blob-${String(i).padStart(3, '0')}`,
      createdDuring: record.tests[i % 6]!.name,
    }));
    const leftovers = section(renderMarkdown(record, { maxRows: 30 }), 'Leftover files');
    expect(leftovers).toContain('<details><summary><strong>Leftover files (300)');
    // 50 a test in one folder: said by folder, with a few names, not 50 lines.
    expect(leftovers).toContain('  - `./` 50 files: `blob-000`, `blob-006`, `blob-012`, …');
    // Folded, all six tests fit the budget.
    expect(leftovers.split('\n').filter((l) => l.startsWith('- during '))).toHaveLength(6);
    expect(leftovers.split('\n').filter((l) => l.startsWith('  - `')).length).toBeLessThanOrEqual(30);
  });

  it('in a long run, draws only the tests with something to say and counts the rest', () => {
    const base = loadRunRecord('bats-teardown-failed');
    const filler = (i: number) => ({ ...base.tests[0]!, name: `filler ${i}` });
    const record: RunRecord = {
      ...base,
      tests: [...Array.from({ length: 200 }, (_, i) => filler(i)), base.tests[1]!, ...Array.from({ length: 200 }, (_, i) => filler(200 + i))],
    };
    const timeline = section(renderMarkdown(record), 'Timeline');
    const rows = timeline.split('\n').flatMap((l) => /^\| (\d+) \| `([^`]+)`/.exec(l)?.slice(1) ?? []);
    expect(rows).toEqual(['201', 'daemon writes a heartbeat every 100 ms']);
    expect(timeline).toContain('The other 400 tests: passed or skipped, nothing to note.');
  });

  it('renders from the redacted record when asked', () => {
    const markdown = renderMarkdown(loadRunRecord('pytest-winerror32'), { redact: { home: 'C:\\Users\\alice', user: 'alice' } });
    expect(markdown.replace(/malice/g, '')).not.toMatch(/alice/i);
    expect(markdown).toContain('Set-Location ~\\src\\bridge;');
    expect(markdown).toContain('`~\\AppData\\Local\\Temp\\pytest-of-<user>\\pytest-12`');
  });
});
