import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { WatchEvent } from '../../contract/holders.js';
import { subscribeAll } from '../../contract/service-client.js';
import { pollingService } from '../../contract/polling-service.fixture.js';
import { PageSender, SEND_LIMITS } from './page-sender.js';

/** A page that reads nothing: every byte sent stays waiting, as in a stalled tab. */
function stalledPage() {
  const page = { OPEN: 1, readyState: 1, bufferedAmount: 0, closedWith: null as number | null };
  return Object.assign(page, {
    once: () => page,
    send: (text: string) => void (page.bufferedAmount += Buffer.byteLength(text)),
    close: (code: number) => void ((page.closedWith = code), (page.readyState = 3)),
  });
}

/** A first scan as a test suite leaves it: a few processes with a long command line, one file each per holder. */
function firstScan(count: number): WatchEvent[] {
  const commandLine = `/usr/bin/python3 -m pytest -n 6 --basetemp=/tmp/pytest-of-runner/pytest-12 -p holdwatch_probe tests/integration ${'-k slow '.repeat(12)}`;
  return Array.from({ length: count }, (_, i) => ({
    type: 'appeared',
    at: '2026-01-01T00:00:00.000Z',
    holder: {
      pid: 40_000 + (i % 8),
      ppid: 39_999,
      processStartedAtMs: 1_767_225_600_000 + (i % 8),
      processName: 'python3',
      commandLine,
      user: 'runner',
      kind: 'file',
      path: `/tmp/pytest-of-runner/pytest-12/test_cache_${i % 8}/shard-${i % 97}/f${i}.dat`,
      deleted: false,
      handle: `fd ${100 + i}`,
      watchedDir: '/tmp/pytest-of-runner',
      access: { rights: ['read', 'write'], flags: 'O_RDWR', raw: '0100002' },
    },
  }));
}

describe('PageSender', () => {
  it('keeps a page that has not read a first scan of 150,000 holders open', () => {
    const { service, emitPoll } = pollingService();
    const page = stalledPage();
    const sender = new PageSender(page as unknown as WebSocket);
    subscribeAll(service, (event) => sender.event(event));
    emitPoll('w1', firstScan(150_000));
    expect(page.closedWith).toBeNull();
    // Room left for the scans that follow, and a run's output, before the page is closed.
    expect(page.bufferedAmount).toBeLessThan(SEND_LIMITS.closeAtBytes / 2);
  });
});
