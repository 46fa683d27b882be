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

  it('TAP that arrived while its parser was loading is parsed once it is, at the times it arrived', () => {
    let now = 100;
    const tap = laterTap();
    const p = new SniffingParser('run', { now: () => now }, tap.source);
    expect(p.push('TAP version 13\n1..2\nok 1 - first\n')).toEqual({ events: [], lines: [] });
    now = 200;
    expect(p.push('ok 2 - second\n')).toEqual({ events: [], lines: [] });
    now = 300;
    tap.load();
    const out = [p.push('# done\n'), p.end(0)];
    expect(p.kind).toBe('tap');
    const ends = out.flatMap((o) => o.events).filter((e) => e.type === 'test-end');
    expect(ends.map((e) => [e.name, e.atMs])).toEqual([
      ['first', 100],
      ['second', 200],
    ]);
  });

  it('a TAP parser that never loaded leaves the lines to the plain reader, none lost', () => {
    const p = new SniffingParser('run', { now: () => 1 }, laterTap().source);
    p.push('TAP version 13\nok 1 - first\n');
    const last = p.end(0);
    expect(p.kind).toBe('generic');
    expect(last.lines.map((l) => l.text)).toEqual(['TAP version 13', 'ok 1 - first']);
  });
});
