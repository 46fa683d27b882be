// `holdwatch ui` under attack by another local process (tests/security; the review behind it:
// shared/reviews/reliability.md D1, D2). Each attack is followed by proof that the server still serves:
// the process is alive, the page loads, an authenticated request is answered.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openChromium, screenshot, startUi, type RunningUi } from '../ui/ui-support.js';
import { openRawSocket, upgradeRequest } from './raw-websocket.js';

let ui: RunningUi;
let scratch: string;
let port: number;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-security-'));
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
  port = Number(new URL(ui.origin).port);
}, 30_000);

afterAll(async () => {
  const code = await ui?.stop();
  rmSync(scratch, { recursive: true, force: true });
  expect(code).toBe(0);
});

const withToken = (token: string) => ['holdwatch', `holdwatch.token.${token}`];

/** An authenticated request answered: the server survived whatever came before. */
async function stillServes(target = ui): Promise<void> {
  expect(target.child.exitCode, target.stderr()).toBeNull();
  const page = await fetch(`${target.origin}/`);
  expect(page.status).toBe(200);
  const ws = new WebSocket(`${target.origin.replace('http', 'ws')}/api`, withToken(target.token), { headers: { origin: target.origin } });
  try {
    const answer = await new Promise<unknown>((resolve, reject) => {
      ws.once('error', reject);
      ws.on('message', (data) => {
        const parsed = JSON.parse((data as Buffer).toString()) as { id?: number; result?: unknown };
        if (parsed.id === 1) resolve(parsed.result);
      });
      ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'defaultDir' })));
    });
    expect(answer).toBe(tmpdir());
  } finally {
    ws.close();
  }
}

/** Opens a TCP connection, sends a WebSocket upgrade, and resets the connection `after` the given step. */
function upgradeAndReset(after: 'write' | 'answer', protocols: string[] = []): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.once('connect', () => {
      socket.write(upgradeRequest({ port, origin: 'http://attacker.example', protocols }));
      if (after === 'write') socket.resetAndDestroy();
    });
    socket.once('data', () => socket.resetAndDestroy());
  });
}

describe('holdwatch ui: a local peer without the token', () => {
  it('cannot crash it by resetting WebSocket upgrades, 200 times, at two moments', async () => {
    for (let i = 0; i < 100; i++) {
      await upgradeAndReset('write');
      await upgradeAndReset('answer');
    }
    await stillServes();
  }, 60_000);

  it('cannot crash it with resets in the middle of a request line, or garbage for HTTP', async () => {
    for (let i = 0; i < 50; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        socket.once('connect', () => {
          socket.write(i % 2 ? 'GET / HTTP/1.1\r\nHost: 127.0.0.1' : '\x00\x01\x02 not http\r\n\r\n');
          setImmediate(() => socket.resetAndDestroy());
        });
      });
    }
    await stillServes();
  }, 60_000);

  it('gets 401 for the service without the token, a wrong token, or an old-style cookie: startRun and endProcess are out of reach', async () => {
    const refusals = [
      await openRawSocket({ port, origin: ui.origin, protocols: ['holdwatch'] }),
      await openRawSocket({ port, origin: ui.origin, protocols: withToken(`${ui.token.slice(0, -1)}${ui.token.endsWith('A') ? 'B' : 'A'}`) }),
      await openRawSocket({ port, origin: ui.origin, protocols: withToken(`${ui.token}x`) }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe('HTTP/1.1 401 Unauthorized');
      refused.socket.destroy();
    }
    await stillServes();
  });

  it('sets no cookie on any response, so nothing of it travels to other servers on 127.0.0.1', async () => {
    for (const path of ['/', '/index.html', '/missing.js', '/?token=x']) {
      const res = await fetch(`${ui.origin}${path}`);
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
  });
});

describe('holdwatch ui: a peer with the token sending what no browser sends', () => {
  const cases: Array<[string, number, Buffer, { unmasked?: boolean }, number]> = [
    ['a text frame of 1 MiB + 1 byte', 1, Buffer.alloc(1024 * 1024 + 1, 0x61), {}, 1009],
    ['a text frame of invalid UTF-8', 1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), {}, 1007],
    ['a frame with the reserved opcode 3', 3, Buffer.from('x'), {}, 1002],
    ['an unmasked client frame', 1, Buffer.from('{}'), { unmasked: true }, 1002],
  ];
  for (const [what, opcode, payload, options, code] of cases) {
    it(`closes that one connection with ${code} for ${what}, and keeps serving`, async () => {
      const raw = await openRawSocket({ port, origin: ui.origin, protocols: withToken(ui.token) });
      expect(raw.status).toBe('HTTP/1.1 101 Switching Protocols');
      raw.frame(opcode, payload, options);
      await expect(raw.closeCode()).resolves.toBe(code);
      raw.socket.destroy();
      await stillServes();
    });
  }

  it('survives a reset in the middle of a frame', async () => {
    for (let i = 0; i < 20; i++) {
      const raw = await openRawSocket({ port, origin: ui.origin, protocols: withToken(ui.token) });
      raw.socket.write(Buffer.from([0x81, 0xfe, 0x10, 0x00, 1, 2, 3, 4, 5])); // 4,096 announced, 1 sent
      raw.socket.resetAndDestroy();
    }
    await stillServes();
  });
});

describe('holdwatch ui: the token on no command line', () => {
  it('opens the browser on a 0600 launcher file, never on the tokened URL, and that file leads to the live app', async () => {
    // "The browser" is a script on PATH that records what it was given and stays, as a browser would.
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    const given = join(scratch, 'xdg-open.args');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${given}'\nsleep 60\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const data = join(scratch, 'open-data');
    const opened = await startUi({ HOLDWATCH_DATA_DIR: data, PATH: `${bin}:${process.env.PATH}` }, { openBrowser: true });
    let launcher = '';
    try {
      await expect.poll(() => existsSync(given) && readFileSync(given, 'utf8').trim(), { timeout: 10_000 }).toBeTruthy();
      launcher = readFileSync(given, 'utf8').trim();

      // Every process's command line, read as another user could: no token in any of them.
      const withTokenInArgv = readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`).includes(opened.token);
          } catch {
            return false; // exited meanwhile
          }
        });
      expect(withTokenInArgv).toEqual([]);

      expect(launcher.startsWith(join(data, 'ui'))).toBe(true);
      expect(statSync(launcher).mode & 0o777).toBe(0o600);
      expect(statSync(join(data, 'ui')).mode & 0o777).toBe(0o700);

      const browser = await openChromium();
      try {
        await browser.page.goto(`file://${launcher}`);
        await browser.page.waitForURL(`${opened.origin}/`, { timeout: 15_000 });
        await browser.page.locator('.connection.open').waitFor({ timeout: 15_000 });
        // Reloading keeps the connection (the token waits in the tab's sessionStorage), and no cookie exists.
        await browser.page.reload();
        await browser.page.locator('.connection.open').waitFor({ timeout: 15_000 });
        expect(await browser.context.cookies()).toEqual([]);
        // Another tab at the bare address has no token: it says where to find it, and gets nothing.
        const bare = await browser.context.newPage();
        await bare.goto(`${opened.origin}/`);
        await bare
          .getByText(/has no access token: open the URL `holdwatch ui` printed/)
          .first()
          .waitFor({ timeout: 15_000 });
        await screenshot(bare, 'security-no-token');
      } finally {
        await browser.close();
      }
      await stillServes(opened);
    } finally {
      expect(await opened.stop()).toBe(0);
      const pid = readdirSync('/proc').find((p) => /^\d+$/.test(p) && safeRead(`/proc/${p}/cmdline`).includes(join(bin, 'xdg-open')));
      if (pid) process.kill(-Number(pid), 'SIGKILL'); // its group: the script and its sleep
    }
    expect(existsSync(launcher), 'the launcher is removed when the UI stops').toBe(false);
  }, 60_000);
});

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}
