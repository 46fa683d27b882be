import { describe, expect, it } from 'vitest';
import type { AttributedHolder } from '../../contract/runs.js';
import { loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { renderMarkdown } from './markdown.js';
import { renderStepSummary } from './step-summary.js';

describe('renderStepSummary', () => {
  it('leads with the headline and lists the holders that matter', () => {
    const summary = renderStepSummary(loadRunRecord('bats-teardown-failed'));
    const lines = summary.split('\n');
    expect(lines[0]).toBe(
      '### holdwatch: Teardown of `daemon writes a heartbeat every 100 ms` failed (ENOTEMPTY): `bash` PID 5123, spawned by `daemon writes a heartbeat every 100 ms`, still held `test/2/work` (and 1 more holder)',
    );
    expect(summary).toContain('- `daemon writes a heartbeat every 100 ms`: body passed, teardown failed');
    expect(summary).toContain('| `test/2/work/heartbeat.log` | `bash` 5123 | `daemon writes a heartbeat every 100 ms` | **blocked-cleanup** |');
  });

  it('is much shorter than the full report and caps the table at 10 rows', () => {
    const record = loadRunRecord('linux-leaked-past-test');
    const template = record.holders[0]!;
    record.holders = Array.from({ length: 500 }, (_, i): AttributedHolder => ({ ...template, pid: 10_000 + i, path: `${template.watchedDir}/f${i}` }));
    const summary = renderStepSummary(record);
    expect(summary.split('\n').filter((l) => l.includes('| `python3` '))).toHaveLength(10);
    expect(summary).toContain('… and 490 more holders');
    expect(summary.length * 3).toBeLessThan(renderMarkdown(record).length);
  });

  it('leaves holders inside their test out and says a clean run is clean', () => {
    const clean = renderStepSummary(loadRunRecord('clean'));
    expect(clean).toBe(
      '### holdwatch: No teardown failed and no handle outlived its test (3 tests, exit code 0)\n\nlinux · 3 tests (3 passed) · exit code 0 · 1.52 s · 0 holders · 0 teardown failures\n',
    );
    expect(renderStepSummary(loadRunRecord('linux-leaked-past-test'))).not.toContain('compact.lock');
  });
});
