// The command's output streams at its end: drained() settles when the last stream ends, not at the
// quiet timer's next look; a stream left open by a detached grandchild is let go once quiet.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutputStreams } from './output-streams.js';

const io = { stdin: 'ignore' as const, output: () => undefined, userSeesTerminal: false, forwardSignals: false };

/** Two flowing streams, as the run reads a command's stdout and stderr, on a clock the test moves. */
function streams() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  for (const stream of [stdout, stderr]) stream.on('data', () => undefined);
  const clock = { ms: 0 };
  return { stdout, stderr, clock, output: new OutputStreams(io, stdout, stderr, () => clock.ms) };
}

/** A few turns of the event loop (setImmediate is not faked): enough for 'end' to be emitted. */
async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('OutputStreams.drained', () => {
  afterEach(() => vi.useRealTimers());

  it('settles as the last stream ends, with no timer run (output came just before)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { stdout, stderr, output } = streams();
    output.pass('stdout', Buffer.from('1 passed\n'));
    let settled = false;
    const drained = output.drained().then(() => (settled = true));
    await turns();
    expect(settled).toBe(false); // both pipes still open, output moments ago
    stdout.end();
    await turns();
    expect(settled).toBe(false);
    stderr.end();
    await turns();
    expect(settled).toBe(true);
    await drained;
  });

  it('lets a stream that never ends go once the output has been quiet a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { stdout, clock, output } = streams();
    let settled = false;
    const drained = output.drained().then(() => (settled = true));
    stdout.end();
    await turns();
    expect(settled).toBe(false); // stderr still open (a grandchild kept it)
    clock.ms = 99;
    await vi.advanceTimersByTimeAsync(25);
    expect(settled).toBe(false); // not yet quiet long enough
    clock.ms = 100;
    await vi.advanceTimersByTimeAsync(25);
    await turns();
    expect(settled).toBe(true);
    await drained;
  });
});
