// The UI's watch when holdwatch's fd table fills (reliability-2.md F3): the watch used to end for good
// on the first EMFILE ("The watch stopped: EMFILE … scandir '/proc'"). `holdwatch ui` runs under a
// small fd limit (prlimit) and pages with the token fill it (they are let in: they hold the token);
// the watch says it is retrying, and once the pages close it scans again on its own.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startUi } from '../ui/ui-support.js';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-watch-emfile-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Status {
  scans: number;
  error: string | null;
  retrying?: string | null;
}

const until = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe.skipIf(process.platform !== 'linux')('a UI watch whose scans meet EMFILE', () => {
  it('retries with backoff and recovers once fds are free again; it never stops', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') }, { maxFds: 160 });
    const connectPage = () =>
      new Promise<WebSocket | null>((resolve) => {
        const ws = new WebSocket(`${ui.origin.replace('http', 'ws')}/api`, ['holdwatch', `holdwatch.token.${ui.token}`], { headers: { origin: ui.origin } });
        ws.once('open', () => resolve(ws));
        ws.once('error', () => resolve(null));
        ws.once('close', () => resolve(null));
      });
    try {
      const page = (await connectPage())!;
      const statuses: Status[] = [];
      page.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString()) as { event?: { channel: string; status?: Status } };
        if (message.event?.channel === 'watch-status') statuses.push(message.event.status!);
      });
      page.send(JSON.stringify({ id: 1, method: 'startWatch', request: { dirs: [watched], intervalMs: 100 } }));
      await until(() => statuses.some((s) => s.scans >= 1));

      // Pages with the token until the fd table is full and a scan fails.
      const pages: WebSocket[] = [];
      while (!statuses.some((s) => s.retrying || s.error)) {
        const more = await Promise.all(Array.from({ length: 20 }, connectPage));
        pages.push(...more.filter((ws): ws is WebSocket => ws !== null));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const failedAt = statuses.length;
      expect(statuses.find((s) => s.retrying || s.error)).toMatchObject({ error: null, retrying: expect.stringMatching(/EMFILE.*trying again in \d+ s/) });

      for (const ws of pages) ws.close();
      const before = statuses.slice(0, failedAt).at(-1)!.scans;
      await until(() => statuses.some((s) => s.scans > before && !s.retrying) || statuses.some((s) => s.error !== null));
      expect(statuses.filter((s) => s.error !== null)).toEqual([]);
      expect(statuses.at(-1)).toMatchObject({ error: null, retrying: null });
      page.close();
    } finally {
      await ui.stop();
    }
  }, 90_000);
});
