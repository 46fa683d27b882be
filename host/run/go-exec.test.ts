import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goExecEnvironment } from './go-exec.js';

const probesDir = join(import.meta.dirname, '../../probes');
const SCRIPT = join(probesDir, 'go/holdwatch-go-exec');
const linux = { platform: 'linux' as const, probesDir };

describe('goExecEnvironment', () => {
  it("adds holdwatch's -exec to the user's GOFLAGS, and names a cached program by its sources' hash", () => {
    const env = goExecEnvironment({ GOFLAGS: '-mod=vendor' }, '/data', linux);
    expect(env.GOFLAGS).toBe(`-mod=vendor -exec=${SCRIPT}`);
    expect(env.HOLDWATCH_GO_EXEC_BIN).toMatch(/^\/data\/go-exec\/[0-9a-f]{16}\/holdwatch-go-exec$/);
    expect(goExecEnvironment({}, '/data', linux).GOFLAGS).toBe(`-exec=${SCRIPT}`);
  });

  it("leaves Go alone when the user's GOFLAGS already names an -exec, and off Linux", () => {
    expect(goExecEnvironment({ GOFLAGS: '-exec=wine' }, '/data', linux)).toEqual({});
    expect(goExecEnvironment({ GOFLAGS: '-count=1 --exec /usr/bin/env' }, '/data', linux)).toEqual({});
    expect(goExecEnvironment({}, 'C:\\data', { platform: 'win32', probesDir })).toEqual({});
  });
});
