// What a short test process said on the boundary channel before it exited is read at the run's end,
// even when holdwatch's loop did not turn between its connecting and the command's exit (a busy main
// thread): settle() accepts the queued connection and reads it to its end before close(). A went-on
// names the last end its process waited for, answered already or not.
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoundaryTestEnd } from '../../contract/boundary.js';
import { BoundaryServer } from './boundary-server.js';

const SYSTEM_PYTHON = '/usr/bin/python3';

// Says hello and two test ends with their holdings listed (nothing waits for an answer), then exits.
const SHORT_PROCESS = `
import json, os, socket, sys
host, port, token = sys.argv[1].rsplit(":", 2)
s = socket.create_connection((host, int(port)))
lines = [{"type": "hello", "token": token, "pid": os.getpid()}]
for seq, name in enumerate(["test_a", "test_b"], 1):
    lines.append({"type": "test-end", "seq": seq, "name": name, "atMs": 1, "held": [{"kind": "file", "path": "/w/" + name, "fd": 3, "deleted": False}]})
s.sendall("".join(json.dumps(l) + "\\n" for l in lines).encode())
s.close()
`;

// Waits for a test end's ack, then says it went on without it: how a busy holdwatch may read a
// went-on the process sent in time, only after the scan it gave up on was answered.
const WENT_ON_AFTER_ACK = `
import json, os, socket, sys
host, port, token = sys.argv[1].rsplit(":", 2)
s = socket.create_connection((host, int(port)))
send = lambda m: s.sendall((json.dumps(m) + "\\n").encode())
send({"type": "hello", "token": token, "pid": os.getpid()})
send({"type": "test-end", "seq": 1, "name": "test_a", "atMs": 1000})
assert json.loads(s.makefile().readline()) == {"type": "ack", "seq": 1}
send({"type": "went-on", "seq": 1, "atMs": 3000})
s.close()
`;

let server: BoundaryServer | null = null;
afterEach(() => server?.close());

describe('BoundaryServer.settle', () => {
  it('reads what an exited process sent although the loop never turned while it ran', async () => {
    const seen: string[] = [];
    server = await BoundaryServer.start(
      async (event) => void seen.push((event as BoundaryTestEnd).name),
      (error) => {
        throw error;
      },
    );
    // Blocks this thread until the process exited: its connection waits in the accept queue.
    expect(spawnSync(SYSTEM_PYTHON, ['-c', SHORT_PROCESS, server.address]).status).toBe(0);
    await server.settle(10_000);
    server.close();
    expect(seen).toEqual(['test_a', 'test_b']);
  });

  it('does not wait past its bound for a process that keeps its connection open', async () => {
    server = await BoundaryServer.start(
      async () => {},
      () => {},
    );
    const { createConnection } = await import('node:net');
    const [host, port] = server.address.split(':');
    const open = createConnection(Number(port), host);
    await new Promise((resolve) => open.once('connect', resolve));
    await server.settle(50);
    server.close();
    open.destroy();
  });
});

describe('BoundaryServer went-on', () => {
  it('hands over a went-on read after the ack of the end it names', async () => {
    const wentOn: { name: string; atMs: number }[] = [];
    server = await BoundaryServer.start(
      async () => {},
      (error) => {
        throw error;
      },
      undefined,
      undefined,
      (ended, _pid, atMs) => wentOn.push({ name: ended.name, atMs }),
    );
    const client = spawn(SYSTEM_PYTHON, ['-c', WENT_ON_AFTER_ACK, server.address], { stdio: 'inherit' });
    expect(await new Promise((resolve) => client.once('exit', resolve))).toBe(0);
    await server.settle(10_000);
    expect(wentOn).toEqual([{ name: 'test_a', atMs: 3000 }]);
  });
});
