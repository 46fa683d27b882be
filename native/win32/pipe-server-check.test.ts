// Which connection the worker may speak on: only one served by the host. The real calls run under
// Wine (tests/wine: a squatter's pipe is refused, the host's accepted); here, the decisions.
import { describe, expect, it } from 'vitest';
import { refusePipeServer, type PipeServerProbe } from './pipe-server-check.js';

/** A process's File handles, each a pipe client served by a pid, or not a pipe (null). */
const OWN_PID = 5000;
const probe = (handles: [bigint, number | null][]): PipeServerProbe => ({
  ownPid: OWN_PID,
  ownFileHandles: () => new Set(handles.map(([h]) => h)),
  serverPid: (handle) => handles.find(([h]) => h === handle)?.[1] ?? null,
});
const before = new Set([0x40n, 0x44n]); // stdio, present before connecting

describe('refusePipeServer', () => {
  it("accepts the connection connecting added when the host serves it, whatever the process's older pipes are", () => {
    expect(
      refusePipeServer(
        probe([
          [0x40n, 900],
          [0x44n, null],
          [0x1a8n, 4242],
          [0x1acn, null],
        ]),
        before,
        4242,
      ),
    ).toBeNull();
  });

  it("pipes this process serves itself (Chromium's own, made while the app starts) neither refuse nor stand for the connection", () => {
    const own = (connection: [bigint, number | null][]) => probe([[0x40n, 900], [0x1b0n, OWN_PID], [0x1b4n, OWN_PID], ...connection]);
    expect(refusePipeServer(own([[0x1a8n, 4242]]), before, 4242)).toBeNull();
    expect(refusePipeServer(own([]), before, 4242)).toBe('no new pipe connection was found in this process');
  });

  it('refuses a connection served by any other pid', () => {
    expect(
      refusePipeServer(
        probe([
          [0x40n, 900],
          [0x1a8n, 6666],
        ]),
        before,
        4242,
      ),
    ).toBe("the pipe is served by pid 6666, not by holdwatch's host (pid 4242)");
  });

  it('refuses when it cannot find the connection: no evidence is not trust', () => {
    expect(
      refusePipeServer(
        probe([
          [0x40n, 4242],
          [0x1a8n, null],
        ]),
        before,
        4242,
      ),
    ).toBe('no new pipe connection was found in this process');
  });
});
