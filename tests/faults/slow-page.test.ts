// A page that does not read while a run prints a lot (reliability-2.md F7): 300 MB of output to such a
// page took `holdwatch ui` to 505 MB, all of it waiting to be sent. Now what waits for one page is
// bounded: its output past the high-water mark is dropped for that page and counted, the page is told
// how much it missed once it reads again, and the host's memory stays near its idle size.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawSocket } from '../security/raw-websocket.js';
import { runCli } from '../support/cli.js';
import { startUi } from '../ui/ui-support.js';

const OUTPUT_MB = 300;
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-slow-page-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

describe.skipIf(process.platform !== 'linux')('a page that does not read while a run prints', () => {
  it(`${OUTPUT_MB} MB of output: the host stays small, and the page learns what it missed`, async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const data = join(scratch, 'data');
    const ui = await startUi({ HOLDWATCH_DATA_DIR: data });
    try {
      const port = Number(new URL(ui.origin).port);
      const page = await openRawSocket({ port, origin: ui.origin, protocols: ['holdwatch', `holdwatch.token.${ui.token}`] });
      let seen = '';
      page.socket.on('data', (chunk: Buffer) => (seen = (seen + chunk.toString('latin1')).slice(-4096)));
      const script = `import sys\nblock = b'x' * (1 << 20)\nfor _ in range(${OUTPUT_MB}): sys.stdout.buffer.write(block)\n`;
      const request = { id: 1, method: 'startRun', request: { command: ['python3', '-c', script], cwd: scratch, dirs: [watched] } };
      page.frame(0x1, Buffer.from(JSON.stringify(request)));
      page.socket.pause(); // the page stops reading: what is sent to it waits in the host

      // The run ends (its journal says so) while the page reads nothing.
      const finished = async () => {
        const runs = await runCli(['runs', '--json'], { env: { HOLDWATCH_DATA_DIR: data } });
        return (JSON.parse(runs.stdout || '[]') as { finished: boolean }[]).some((r) => r.finished);
      };
      while (!(await finished())) await new Promise((resolve) => setTimeout(resolve, 500));
      const rss = rssMb(ui.child.pid!);
      expect(rss, `host RSS ${rss.toFixed(0)} MB after ${OUTPUT_MB} MB to a page that did not read`).toBeLessThan(250);

      page.socket.resume();
      while (!seen.includes('were not sent to this page')) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen).toMatch(/holdwatch: \d+ bytes of this run's output were not sent to this page/);
    } finally {
      await ui.stop();
    }
  }, 180_000);
});
