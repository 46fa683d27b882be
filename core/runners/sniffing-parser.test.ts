import { describe, expect, it } from 'vitest';
import { detectRunner, SniffingParser } from './sniffing-parser.js';

describe('SniffingParser', () => {
  it('detects runners from their first line', () => {
    expect(detectRunner('{"Time":"2026-01-01T00:00:00Z","Action":"start","Package":"x"}')).toBe('go-test-json');
    expect(detectRunner('TAP version 13')).toBe('tap');
    expect(detectRunner('1..4')).toBe('tap');
    expect(detectRunner('============ test session starts ============')).toBe('generic');
  });

  it('keeps every line, including those before the first newline arrived', () => {
    const p = new SniffingParser('run', { now: () => 1 });
    const first = p.push('hel');
    const second = p.push('lo\nworld\npartial');
    const last = p.end(0);
    expect(p.kind).toBe('generic');
    expect([...first.lines, ...second.lines, ...last.lines].map((l) => l.text)).toEqual(['hello', 'world', 'partial']);
  });

  it('turns TAP into test events', () => {
    const p = new SniffingParser('run', { now: () => 5 });
    const out = [p.push('TAP version 13\n1..2\nok 1 - first\nnot ok 2 - second\n'), p.end(1)];
    const ends = out.flatMap((o) => o.events).filter((e) => e.type === 'test-end');
    expect(ends.map((e) => [e.name, e.outcome])).toEqual([
      ['first', 'passed'],
      ['second', 'failed'],
    ]);
  });
});
