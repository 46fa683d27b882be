import { describe, expect, it } from 'vitest';
import type { Clock } from '../clock.js';
import { detectRunner, SniffingParser, type TapParserSource } from './sniffing-parser.js';
import { TapStreamParser } from './tap.js';

const loadedTap: TapParserSource = () => (runName, clock) => new TapStreamParser(runName, clock);

/** A TAP parser that loads when the test says so. */
function laterTap(): { source: TapParserSource; load(): void } {
  let loaded = false;
  return { source: () => (loaded ? (runName: string, clock: Pick<Clock, 'now'>) => new TapStreamParser(runName, clock) : null), load: () => (loaded = true) };
}

describe('SniffingParser', () => {
  it('detects runners from their first line', () => {
    expect(detectRunner('{"Time":"2026-01-01T00:00:00Z","Action":"start","Package":"x"}')).toBe('go-test-json');
    expect(detectRunner('TAP version 13')).toBe('tap');
    expect(detectRunner('1..4')).toBe('tap');
    expect(detectRunner('============ test session starts ============')).toBe('generic');
  });

  it('keeps every line, including those before the first newline arrived', () => {
    const p = new SniffingParser('run', { now: () => 1 }, loadedTap);
    const first = p.push('hel');
    const second = p.push('lo\nworld\npartial');
    const last = p.end(0);
    expect(p.kind).toBe('generic');
    expect([...first.lines, ...second.lines, ...last.lines].map((l) => l.text)).toEqual(['hello', 'world', 'partial']);
  });

  it('turns TAP into test events', () => {
    const p = new SniffingParser('run', { now: () => 5 }, loadedTap);
    const out = [p.push('TAP version 13\n1..2\nok 1 - first\nnot ok 2 - second\n'), p.end(1)];
    const ends = out.flatMap((o) => o.events).filter((e) => e.type === 'test-end');
    expect(ends.map((e) => [e.name, e.outcome])).toEqual([
      ['first', 'passed'],
      ['second', 'failed'],
    ]);
  });

  it('TAP that arrived while its parser was loading: its lines at once, its events once it is, at the times they arrived', () => {
    let now = 100;
    const tap = laterTap();
    const p = new SniffingParser('run', { now: () => now }, tap.source);
    expect(p.push('TAP version 13\n1..2\nok 1 - first\n')).toEqual({
      events: [],
      lines: [{ text: 'TAP version 13' }, { text: '1..2' }, { text: 'ok 1 - first' }],
    });
    now = 200;
    expect(p.push('ok 2 - sec')).toEqual({ events: [], lines: [] });
    now = 300;
    tap.load();
    const out = [p.push('ond\n# done\n'), p.end(0)];
    expect(p.kind).toBe('tap');
    expect(out.flatMap((o) => o.lines.map((l) => l.text))).toEqual(['ok 2 - second', '# done']);
    const ends = out.flatMap((o) => o.events).filter((e) => e.type === 'test-end');
    expect(ends.map((e) => [e.name, e.atMs])).toEqual([
      ['first', 100],
      ['second', 300],
    ]);
    expect(out.flatMap((o) => o.events).find((e) => e.type === 'run-start')?.atMs).toBe(100);
  });

  it('a TAP parser that never loaded: every line passed on once, and the run still starts and ends', () => {
    const p = new SniffingParser('run', { now: () => 1 }, laterTap().source);
    const first = p.push('TAP version 13\nok 1 - first\npartial');
    const last = p.end(0);
    expect(p.kind).toBe('generic');
    expect([...first.lines, ...last.lines].map((l) => l.text)).toEqual(['TAP version 13', 'ok 1 - first', 'partial']);
    expect(last.events.map((e) => e.type)).toEqual(['run-start', 'run-end']);
  });
});
