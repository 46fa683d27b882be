// The HTML report opened in a real browser: a record full of markup must come out as text, with no
// element created from it. Skipped (and says so) where Debian's chromium is not installed.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { renderHtml } from './html.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const HOSTILE = `<script>document.title='PWNED'</script><img src=x onerror="document.title='PWNED'">`;

async function dumpDom(page: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'holdwatch-report-'));
  try {
    const file = join(dir, 'report.html');
    writeFileSync(file, page);
    const { stdout } = await promisify(execFile)(CHROMIUM!, ['--headless', '--no-sandbox', '--disable-gpu', '--dump-dom', `file://${file}`], {
      timeout: 60_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!CHROMIUM)('renderHtml in Chromium', () => {
  it('shows hostile paths and texts as text and creates no element from them', { timeout: 90_000 }, async () => {
    const record = loadRunRecord('bats-teardown-failed');
    record.holders[1]!.path = `${record.watched[0]}/${HOSTILE}`;
    record.failures[0]!.text = `rm: cannot remove '${HOSTILE}': Directory not empty`;
    const dom = await dumpDom(renderHtml(record));
    expect(dom).toContain('<svg class="timeline"');
    expect(dom).not.toMatch(/<script|<img/i);
    expect(dom).not.toContain('PWNED</title>');
    // The browser parsed our escapes back into text, and serialises that text escaped again.
    expect(dom).toContain("&lt;script&gt;document.title='PWNED'&lt;/script&gt;&lt;img src=x onerror=\"document.title='PWNED'\"&gt;");
  });
});
