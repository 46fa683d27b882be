import { describe, expect, it } from 'vitest';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import { loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { HOLDER_COLUMNS } from './holder-columns.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { shortenMiddle } from './model.js';
import { renderStepSummary } from './step-summary.js';

/** The leaked-past-test fixture with `n` more paths held by one process outside the run. */
function withOutsiders(n: number): RunRecord {
  const record = loadRunRecord('linux-leaked-past-test');
  const outsider = record.holders.find((h) => h.attribution.verdict === 'outside-run')!;
  const many = Array.from({ length: n }, (_, i): AttributedHolder => ({
    ...outsider,
    pid: 4242,
    processName: 'indexerd',
    path: `${outsider.watchedDir}/other/f${i}`,
  }));
  return { ...record, holders: [...record.holders, ...many] };
}

describe('holder columns, described once', () => {
  it('every column is in the HTML header, and in the Markdown main table or its folded details', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const page = renderHtml(record);
    const markdown = renderMarkdown(record);
    expect(page).toContain(`<tr>${HOLDER_COLUMNS.map((c) => `<th>${c.label}</th>`).join('')}</tr>`);
    const headers = markdown.split('\n').filter((l) => l.startsWith('| Path |'));
    expect(headers).toEqual([
      `| ${HOLDER_COLUMNS.filter((c) => c.main)
        .map((c) => c.label)
        .join(' | ')} |`,
      `| ${HOLDER_COLUMNS.filter((c) => !c.main || c.key)
        .map((c) => c.label)
        .join(' | ')} |`,
    ]);
    expect(HOLDER_COLUMNS.filter((c) => c.main).length).toBeLessThanOrEqual(4);
  });
});

describe('paths shortened in the middle', () => {
  it('keeps the start and the file name, never cuts from the left', () => {
    const long = 'build/cache/very/deeply/nested/folder/of/generated/artifacts/for/tests/app.log';
    const short = shortenMiddle(long, 40);
    expect(short).toHaveLength(40);
    expect(short.startsWith('build/cache/')).toBe(true);
    expect(short.endsWith('/tests/app.log')).toBe(true);
    expect(short).toContain('…');
    expect(shortenMiddle('app.log', 40)).toBe('app.log');
  });

  it('the main table shows it shortened, the folded details whole', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const long = `${record.holders[0]!.watchedDir}/build/cache/very/deeply/nested/folder/of/generated/artifacts/index.sqlite`;
    record.holders[0] = { ...record.holders[0]!, path: long };
    const markdown = renderMarkdown(record);
    const [main, details] = markdown.split('<details><summary><strong>Whole paths');
    expect(main).toContain('| `build/cache/very/deepl…/generated/artifacts/index.sqlite` |');
    expect(details).toContain('`build/cache/very/deeply/nested/folder/of/generated/artifacts/index.sqlite`');
  });
});

describe('test names in the HTML timeline', () => {
  it('are cut in the middle: the file at the start, the test at the end', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    record.tests[0] = { ...record.tests[0]!, name: 'tests/integration/storage/test_background_indexer.py::test_append_log' };
    const gutter = [...renderHtml(record).matchAll(/class="gutter">([^<]*)<\/text>/g)].map((m) => m[1]!);
    const label = gutter.find((g) => g.includes('…'))!;
    expect(label.startsWith('tests/')).toBe(true);
    expect(label.endsWith('::test_append_log')).toBe(true);
  });
});

describe('holders outside the run', () => {
  it("are counted and folded at the end: the first screen shows only the run's rows", () => {
    const markdown = renderMarkdown(withOutsiders(500));
    const firstScreen = markdown.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).not.toMatch(/other\/f\d+/);
    expect(firstScreen).not.toContain('indexerd');
    expect(firstScreen).toContain('| `index.sqlite` | `python3` 7044 |');
    expect(firstScreen).toContain('Not listed here: 501 paths held by 2 processes outside this run');
    const folded = markdown.slice(markdown.indexOf('<details><summary><strong>Outside this run'));
    expect(folded).toContain('<strong>Outside this run (501 paths, 2 processes)');
    expect(folded).toMatch(/- `indexerd` PID 4242: 500 paths \((`other\/f\d+`, ){3}…\)/);
    expect(markdown.indexOf('Outside this run (')).toBeGreaterThan(markdown.indexOf('#### Timeline'));
  });

  it('in the HTML, are not rows of the holders table, and are a click away at the end', () => {
    const page = renderHtml(withOutsiders(500));
    const table = page.slice(page.indexOf('<h2>Holders'), page.indexOf('</table>', page.indexOf('<h2>Holders')));
    expect(table).not.toContain('indexerd');
    expect(page).toContain('Not listed here: 501 paths held by 2 processes outside this run');
    expect(page).toMatch(/<h2>Outside this run <small class="meta">\(501 paths, 2 processes\)<\/small><\/h2>/);
    // Nor lanes of the timeline.
    const svg = page.slice(page.indexOf('<svg'), page.indexOf('</svg>'));
    expect(svg).not.toContain('indexerd');
    expect(svg).not.toContain('… and');
  });

  it("stay with the run's rows when they hold the path a cleanup failed on", () => {
    const markdown = renderMarkdown(loadRunRecord('pytest-winerror32'));
    expect(markdown.split('\n').slice(0, 30).join('\n')).toContain('| `bridge0\\demo.nd` | `MsMpEng.exe` 3120 |');
  });

  it('stay out of the step summary', () => {
    expect(renderStepSummary(withOutsiders(50))).not.toContain('indexerd');
  });
});

describe('outlived the run', () => {
  it('lists each leftover process, the test that spawned it and what it still held', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const indexer = record.holders.filter((h) => h.pid === 7044);
    record.commandExitedAt = indexer[0]!.attribution.lastSeenAt;
    const markdown = renderMarkdown(record);
    const section = markdown.slice(markdown.indexOf('#### Outlived the run'), markdown.indexOf('<details>', markdown.indexOf('#### Outlived the run')));
    expect(section).toContain('#### Outlived the run (1 leftover process)');
    expect(section).toContain(
      '- `python3` PID 7044, spawned during `tests/test_store.py::test_writes_index`: still held `index.sqlite`, `index.sqlite-shm`, `index.sqlite-shm`, `index.sqlite-wal`',
    );
    expect(renderHtml(record)).toContain('<h2>Outlived the run (1 leftover process)</h2>');
  });

  it('is absent when no process of the run held anything after the command exited', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    record.commandExitedAt = '2099-01-01T00:00:00.000Z';
    expect(renderMarkdown(record)).not.toContain('Outlived the run');
  });
});

describe('a node:test file process', () => {
  it("is shown by its test file, Node's own options folded, in the table and the ancestry", () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const options = Array.from({ length: 40 }, (_, i) => `--test-option-${i}=0`).join(' ');
    const commandLine = `/usr/bin/node ${options} --tls-cipher-list=TLS_AES_256_GCM_SHA384:HIGH test/store.test.mjs`;
    record.holders = record.holders.map((h) => (h.pid === 7044 ? { ...h, processName: 'node', commandLine } : h));
    for (const h of record.holders) for (const a of h.attribution.ancestry) if (a.pid === 7044) Object.assign(a, { name: 'node', commandLine });
    const markdown = renderMarkdown(record);
    expect(markdown).toContain('| `index.sqlite` | `node (test/store.test.mjs)` 7044 |');
    expect(markdown).toContain('`node` 7044: `/usr/bin/node test/store.test.mjs (+41 Node options)`');
    expect(markdown).not.toContain('--tls-cipher-list');
    expect(renderHtml(record)).not.toContain('--tls-cipher-list');
  });
});
