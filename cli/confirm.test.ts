import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askYesNo } from './confirm.js';

function ask(answer: string | null): Promise<{ yes: boolean; asked: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let asked = '';
  output.on('data', (chunk: Buffer) => (asked += chunk.toString()));
  const yes = askYesNo('Close handle 0x1a4?', input, output);
  if (answer === null) input.end();
  else input.end(`${answer}\n`);
  return yes.then((value) => ({ yes: value, asked }));
}

describe('askYesNo', () => {
  it('asks the question with the safe default shown', async () => {
    expect((await ask('y')).asked).toBe('Close handle 0x1a4? [y/N] ');
  });
  it('is yes only for y or yes', async () => {
    for (const answer of ['y', 'Y', 'yes', ' YES ']) expect((await ask(answer)).yes, answer).toBe(true);
    for (const answer of ['', 'n', 'no', 'yep', 'y y']) expect((await ask(answer)).yes, answer).toBe(false);
  });
  it('is no when the input ends unanswered', async () => {
    expect((await ask(null)).yes).toBe(false);
  });
});
