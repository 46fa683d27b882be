// A HostSession as both hosts build it (built, as shipped), its recent dirs and data in a test's scratch
// dir so no test writes to the user's data dir.
import { join } from 'node:path';
import { RecentDirs } from '../../dist/host/recent-dirs.js';
import { HostSession, type HostSessionOptions } from '../../dist/host/session/host-session.js';

export function scratchSession(scratch: string, more: Partial<HostSessionOptions> = {}): HostSession {
  return new HostSession({
    recentDirs: new RecentDirs(join(scratch, 'data', 'recent.json')),
    ownPids: [process.pid],
    dataDir: join(scratch, 'data'),
    env: process.env,
    workingDirectory: process,
    onListenerError: (error) => process.stderr.write(`holdwatch test: a listener threw: ${String(error)}\n`),
    ...more,
  });
}
