import { describe, expect, it } from 'vitest';
import type { AttributedHolder } from '../../contract/runs.js';
import { batsWithShortLivedFiles, FIXTURE_NAMES, loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { renderHtml } from './html.js';

const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)">"'&`;

function count(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
}

function svgOf(page: string): string {
  return /<svg class="timeline"[\s\S]*?<\/svg>/.exec(page)?.[0] ?? '';
}

describe('renderHtml is self-contained', () => {
  it.each(FIXTURE_NAMES)('%s loads nothing from outside and runs no script', (name) => {
    const page = renderHtml(loadRunRecord(name));
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
    expect(page).not.toMatch(/<script|<link|<iframe|@import|url\(|\ssrc=|\shref=/i);
    // The only URL is the SVG namespace, which is a name, not a fetch.
    expect(page.match(/https?:\/\/[^\s"]+/g) ?? []).toEqual(['http://www.w3.org/2000/svg']);
  });
});

describe('renderHtml escapes every machine-given string', () => {
  it('renders a path, a command line, a test name and a failure text holding markup as inert text', () => {
    const record = loadRunRecord('bats-teardown-failed');
    const dir = record.watched[0]!;
    record.holders[1]!.path = `${dir}/${HOSTILE}`;
    record.holders[1]!.commandLine = `bash -c '${HOSTILE}'`;
    record.holders[1]!.attribution.ancestry[0]!.commandLine = `bash -c '${HOSTILE}'`;
    record.tests[1]!.name = `evil ${HOSTILE}`;
    record.failures[0]!.test = record.tests[1]!.name;
    record.failures[0]!.text = `rm: cannot remove '${HOSTILE}': Directory not empty`;
    record.runId = HOSTILE;
    const page = renderHtml(record);
    expect(page).not.toMatch(/<script|<img|onerror="/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;&quot;&#39;&amp;');
    // In the table, the headline, the timeline tooltips and the failure text alike.
    expect(count(page, /&lt;script&gt;alert\(1\)/)).toBeGreaterThanOrEqual(6);
  });
});

describe('renderHtml content', () => {
  it('puts the headline in the title and the h1', () => {
    const page = renderHtml(loadRunRecord('pytest-winerror32'));
    expect(page).toContain('<title>holdwatch: Teardown of tests/test_bridge.py::test_shutdown failed (WinError 32): python.exe PID 4312');
    expect(page).toMatch(/<h1>Teardown of <code>tests\/<wbr>test_bridge.py::<wbr>test_shutdown<\/code> failed \(WinError 32\)/);
  });

  it("says in a test's tooltip when its end went unconfirmed (the test process went on before the scan)", () => {
    const record = loadRunRecord('pytest-winerror32');
    record.tests[0] = { ...record.tests[0]!, endUnconfirmed: true };
    const tips = [...svgOf(renderHtml(record)).matchAll(/<g class="test"><title>([^<]*)<\/title>/g)].map((m) => m[1]!);
    expect(tips.filter((tip) => tip.includes('its end is not confirmed'))).toEqual([tips[0]]);
  });

  it('draws every test, a lane per holder and a marker per failure', () => {
    const record = loadRunRecord('pytest-winerror32');
    const svg = svgOf(renderHtml(record));
    expect(count(svg, /<g class="test">/)).toBe(record.tests.length);
    expect(count(svg, /<g class="lane">/)).toBe(3);
    expect(count(svg, /<g class="failure">/)).toBe(1);
  });

  it('draws setup/call/teardown segments from phase times, the failed teardown in red', () => {
    const svg = svgOf(renderHtml(loadRunRecord('pytest-winerror32')));
    const shutdown = svg.split('<g class="test">').find((g) => g.includes('<title>tests/test_bridge.py::test_shutdown')) ?? '';
    const fills = [...shutdown.matchAll(/<rect [^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(fills).toEqual(['#b9d3f0', '#5f97d6', '#c62828']);
  });

  it('places the failure marker inside the failing test and holder lanes from first to last sighting', () => {
    const svg = svgOf(renderHtml(loadRunRecord('bats-teardown-failed')));
    const xs = (g: string) => [...g.matchAll(/<rect x="([\d.]+)" y="\d+" width="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    const failing = svg.split('<g class="test">').find((g) => g.includes('<title>daemon writes a heartbeat')) ?? '';
    const [[barX, barW]] = xs(failing) as [[number, number]];
    const marker = Number(/<g class="failure">[\s\S]*?<line x1="([\d.]+)"/.exec(svg)?.[1]);
    expect(marker).toBeGreaterThan(barX);
    expect(marker).toBeLessThan(barX + barW);
    // Without phase times the body that passed stays blue; a red end marks the failed teardown.
    expect([...failing.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1])).toEqual(['#5f97d6', '#c62828']);
    const lane = svg.split('<g class="lane">')[1] ?? '';
    const [[laneX, laneW]] = xs(lane) as [[number, number]];
    expect(laneX).toBeLessThan(marker);
    expect(laneX + laneW).toBeGreaterThan(marker);
  });

  it('says the body passed and the teardown failed in the tests table', () => {
    const page = renderHtml(loadRunRecord('bats-teardown-failed'));
    expect(page).toMatch(/<tr class="teardown-only">.*daemon writes a heartbeat.*body passed, teardown failed/);
  });

  it("folds a shell loop's short-lived files into one row and one lane, each file a click away, the blocker kept", () => {
    const record = batsWithShortLivedFiles(117);
    const page = renderHtml(record);
    expect(count(page, /<tr class="folded">/)).toBe(1);
    const plain = page.replaceAll('<wbr>', ''); // break hints inside long paths
    expect(plain).toMatch(
      /<summary><code>test\/2\/work\/<\/code> 117 short-lived files<\/summary><ul>(<li><code>test\/2\/work\/doc\d+\.idx<\/code><\/li>){117}<\/ul>/,
    );
    expect(plain).toMatch(/<tr><td><code>test\/2\/work<\/code>( \(\w+\))?<\/td><td><code>bash<\/code> 5123<\/td><td>[^\n]*blocked/);
    expect(svgOf(page)).toContain('117 short-lived files');
    expect(count(svgOf(page), /doc\d+\.idx/)).toBe(0);
  });

  it('shows holders, ancestry and leftovers', () => {
    const page = renderHtml(loadRunRecord('linux-leaked-past-test'));
    expect(page).toContain(
      '<tr><td><code>index.sqlite-wal</code></td><td><code>python3</code> 7044</td><td><code>tests/<wbr>test_store.py::<wbr>test_writes_index</code></td><td><span class="verdict verdict-leaked-past-test">leaked-past-test</span></td>',
    );
    expect(page).toContain(
      '<code>python3</code> 7044: <span class="mono">python3 -m notes.indexer --db /home/bob/src/notes/.store/index.sqlite --follow</span>',
    );
    expect(page).toContain(
      '<li>during <code>tests/<wbr>test_search.py::<wbr>test_query</code> (2)<ul><li><code>tmp/<wbr>q-0001.json</code></li><li><code>tmp/<wbr>q-0002.json</code></li></ul></li>',
    );
  });

  it('keeps 500 holders readable: capped table and lanes, the rest one click away', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const template = record.holders[0]!;
    record.holders = Array.from({ length: 500 }, (_, i): AttributedHolder => ({ ...template, pid: 10_000 + i, path: `${template.watchedDir}/f${i}` }));
    const page = renderHtml(record, { maxRows: 50 });
    const [main, rest] = page.split('<details>');
    expect(count(main ?? '', /<td><code>python3<\/code> \d+<\/td>/)).toBe(50);
    expect(rest).toContain('<summary>… and 450 more holders</summary>');
    expect(count(rest ?? '', /<td><code>python3<\/code> \d+<\/td>/)).toBe(450);
    const svg = svgOf(page);
    expect(count(svg, /<g class="lane">/)).toBe(30);
    expect(svg).toContain('… and 470 more');
  });

  it('renders the timeline of a run of 150,000 tests (no spread of their times into one call)', () => {
    const record = loadRunRecord('clean');
    const startMs = Date.parse(record.startedAt);
    record.tests = Array.from({ length: 150_000 }, (_, i) => ({
      name: `test_${i}`,
      startedAt: new Date(startMs + i).toISOString(),
      endedAt: new Date(startMs + i + 1).toISOString(),
      outcome: 'passed' as const,
    }));
    record.endedAt = new Date(startMs + 150_001).toISOString();
    const svg = svgOf(renderHtml(record));
    expect(svg).toContain('Timeline of run');
    expect(svg).toMatch(/… and \d+ more tests/);
  });

  it('renders from the redacted record when asked', () => {
    const page = renderHtml(loadRunRecord('pytest-winerror32'), { redact: { home: 'C:\\Users\\alice', user: 'alice' } });
    expect(page.replace(/malice/g, '')).not.toMatch(/alice/i);
    expect(page).toContain('pytest-of-&lt;user&gt;');
  });
});
