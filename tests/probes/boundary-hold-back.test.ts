// Test ends that list nothing held, after an end that listed nothing either, are held back and sent
// with the next line (or at exit): every end still reaches the real listener, in order, with what it
// held; only a process killed before its exit loses those it held back. A process with a second
// thread cannot list its own children (each thread has its own), so its end goes by the scan.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BoundaryTestEnd } from '../../contract/boundary.js';
import { BoundaryServer } from '../../host/run/boundary-server.js';

const PYTHON = '/usr/bin/python3';
const PROBES = join(import.meta.dirname, '../../probes');
const scratch = mkdtempSync(join(tmpdir(), 'hw-hold-back-'));
const suite = join(scratch, 'suite');
const watched = join(scratch, 'watched');
mkdirSync(suite);
mkdirSync(watched);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// test_d leaves a file under the watched dir open, test_e closes it; test_g ends the process at once
// when asked, as a crash or os._exit would; test_h starts a thread that lives on past its end.
writeFileSync(
  join(suite, 'test_hold.py'),
  `import os, threading, unittest
kept = []
stop = threading.Event()
class Hold(unittest.TestCase):
    def test_a(self): pass
    def test_b(self): pass
    def test_c(self): pass
    def test_d(self): kept.append(open(os.path.join(os.environ["WATCHED"], "kept"), "w"))
    def test_e(self): kept.pop().close()
    def test_f(self): pass
    def test_g(self):
        if os.environ.get("EXIT_AT_ONCE"):
            os._exit(0)
    def test_h(self): threading.Thread(target=stop.wait, daemon=True).start()
`,
);

let server: BoundaryServer | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

/** python -m unittest on the suite, under a real listener; resolves with the test ends it heard. */
async function runSuite(env: Record<string, string> = {}): Promise<{ status: number | null; seen: BoundaryTestEnd[] }> {
  const seen: BoundaryTestEnd[] = [];
  const listening = await BoundaryServer.start(
    async (event) => void (event.type === 'test-end' && seen.push(event)),
    (error) => {
      throw error;
    },
  );
  server = listening;
  const child = spawn(PYTHON, ['-m', 'unittest', 'test_hold'], {
    cwd: suite,
    env: {
      ...process.env,
      PYTHONPATH: [join(PROBES, 'python'), join(PROBES, 'python-runners')].join(':'),
      PYTHONDONTWRITEBYTECODE: '1',
      HOLDWATCH_EVENTS: join(scratch, `events-${Date.now()}.jsonl`),
      HOLDWATCH_BOUNDARY: listening.address,
      HOLDWATCH_WATCHED: watched,
      WATCHED: watched,
      ...env,
    },
    stdio: 'ignore',
  });
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  await listening.settle(5_000);
  return { status, seen };
}

/** Each test's end (no wider scope's) as [test, kinds it listed held]. */
const ends = (seen: BoundaryTestEnd[]) => seen.filter((e) => !e.scope).map((e) => [e.name.split('.').pop(), e.held?.map((h) => h.kind) ?? null]);

// test_e lists nothing after test_d listed its file: sent at once, with test_a to test_c before it.
const UP_TO_E = [
  ['test_a', []],
  ['test_b', []],
  ['test_c', []],
  ['test_d', ['file']],
  ['test_e', []],
];

describe('listed test ends held back', () => {
  it('every end reaches holdwatch, in order, each with what it held; the last ones at exit; none with a thread alive', async () => {
    const { status, seen } = await runSuite();
    expect(status).toBe(0);
    expect(ends(seen)).toEqual([...UP_TO_E, ['test_f', []], ['test_g', []], ['test_h', null]]);
  });

  it('an end that lists nothing after one that listed nothing waits for a later line: a killed process loses it', async () => {
    const { seen } = await runSuite({ EXIT_AT_ONCE: '1' });
    // test_f listed nothing after test_e listed nothing: held back, and the process never got to send it.
    expect(ends(seen)).toEqual(UP_TO_E);
  });
});
