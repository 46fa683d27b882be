import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SniffingParser } from '../../core/runners/sniffing-parser.js';
import { MESSAGE_TEXTS } from '../../core/signatures/messages.js';
import { detectFailure } from '../../core/signatures/failure-line.js';
import { mayBeTeardownFailureBytes } from '../../core/signatures/match-line.js';
import { NEAR_MISSES, SAMPLES } from '../../tests/fixtures/signatures/failure-samples.js';
import { CommandOutputReader } from './command-output-reader.js';
import { FailureLineFilter } from './failure-line-filter.js';

const asBytes = (text: string) => Buffer.from(text, 'utf8');
const binary = (text: string) => asBytes(text).toString('latin1');

/** `output` fed in chunks of `size` bytes (cutting UTF-8 characters and CRLFs apart); every line found. */
function filtered(output: Buffer, size: number): string[] {
  const filter = new FailureLineFilter();
  const found: string[] = [];
  for (let at = 0; at < output.length; at += size) found.push(...filter.push(output.subarray(at, at + size)));
  return [...found, ...filter.end()];
}

/** Binary noise with no newline and no anchor in it. */
function noise(bytes: number): Buffer {
  const out = randomBytes(bytes);
  for (let i = 0; i < out.length; i++) if (out[i] === 0x0a || out[i] === 0x5c) out[i] = 0x20;
  return out;
}

describe('the byte prefilter', () => {
  it('passes every published failure line, and each message text on its own', () => {
    for (const s of SAMPLES) expect(mayBeTeardownFailureBytes(binary(s.line)), s.source).toBe(true);
    for (const m of MESSAGE_TEXTS) expect(mayBeTeardownFailureBytes(binary(`x ${m.text} y`)), m.text).toBe(true);
  });

  it('rejects binary noise, the lines it is there to leave undecoded', () => {
    expect(mayBeTeardownFailureBytes(noise(4096).toString('latin1'))).toBe(false);
  });
});

describe('FailureLineFilter', () => {
  it('finds each failure line whole among binary noise, however the bytes are cut', () => {
    const lines = [...SAMPLES.map((s) => s.line), ...NEAR_MISSES.map((s) => s.line)];
    const output = Buffer.concat(lines.flatMap((line) => [noise(300), asBytes('\n' + line + '\r\n')]));
    for (const size of [1, 7, 4096, output.length]) {
      const found = filtered(output, size);
      for (const s of SAMPLES) expect(found, s.source).toContain(s.line);
      expect(found.flatMap((line) => detectFailure(line) ?? [])).toHaveLength(SAMPLES.length);
    }
  });

  it('looks at the head of a line longer than a failure line can be, and at an unterminated last line', () => {
    const line = SAMPLES[0]!.line;
    const headed = filtered(Buffer.concat([asBytes(line), noise(1 << 20), asBytes('\n')]), 65536);
    expect(headed).toHaveLength(1);
    expect(headed[0]!.startsWith(line)).toBe(true);
    expect(filtered(Buffer.concat([noise(1 << 20), asBytes(line), asBytes('\n')]), 65536)).toEqual([]);
    expect(filtered(asBytes('ok\n' + line), 3)).toEqual([line]);
  });
});

describe('CommandOutputReader', () => {
  it('takes over a plain stream mid-line from the parser that recognised it', () => {
    const line = SAMPLES[0]!.line;
    const reader = new CommandOutputReader(new SniffingParser('cmd', { now: () => 0 }, () => null));
    const bytes = asBytes(`collected 1 item\n${line}\nbye\n${line}`);
    const cut = bytes.indexOf('WinError');
    const first = reader.push(bytes.subarray(0, cut));
    const rest = reader.push(bytes.subarray(cut));
    const end = reader.end(0);
    expect([...first.lines, ...rest.lines, ...end.lines].filter((l) => l.text === line)).toHaveLength(2);
    expect([...first.events, ...end.events].map((e) => e.type)).toEqual(['run-start', 'run-end']);
  });
});
