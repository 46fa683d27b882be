// A watch's scanner moving into a worker and back, with real processes: a python3 holder, the real
// `holdwatch scan-worker` (same rights here: Linux has no elevation prompt), killed to prove the
// fallback. The declined-prompt message is checked from the Win32 error it starts as.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScannerStatus } from '../../contract/service.js';
import { openHolderSource, scannerWorkerLauncher } from '../../native/index.js';
import { RemoteHolderSource } from '../../native/remote/remote-holder-source.js';
import { elevationError, ERROR_CANCELLED } from '../../native/win32/elevated-launch.js';
import { Win32Error } from '../../native/win32/win-errors.js';
import { CLI } from '../../tests/support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../../tests/support/holders.js';
import { elevationFailureMessage, WatchScanner } from './watch-scanner.js';

let scratch: string;
let dir: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-watch-scanner-'));
  dir = join(scratch, 'watched');
  mkdirSync(dir);
  mkdirSync(join(scratch, 'data'));
  writeFileSync(join(dir, 'held.txt'), 'x');
});

afterAll(async () => {
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

describe('elevation failures read as sentences', () => {
  it('ERROR_CANCELLED from ShellExecuteExW becomes "Elevation was declined" with the denied count', () => {
    const declined = elevationError(new Win32Error('ShellExecuteExW', ERROR_CANCELLED));
    expect(elevationFailureMessage(declined, 3)).toBe(
      'Elevation was declined; holders in 3 processes stay unknown (denied). Click "Scan as administrator" to be asked again.',
    );
    expect(elevationFailureMessage(declined, 1)).toMatch(/^Elevation was declined; holders in 1 process stay unknown \(denied\)\./);
    // Any other failure keeps its own reason and says scanning goes on.
    const other = elevationError(new Win32Error('ShellExecuteExW', 2));
    expect(elevationFailureMessage(other, 3)).toMatch(
      /^The elevated scanner could not start \(ShellExecuteExW failed: error 2 ERROR_FILE_NOT_FOUND\); scanning goes on/,
    );
  });
});

describe('WatchScanner', () => {
  it('moves scans into the worker, then back into the host when the worker dies, and says so', async () => {
    const holder = await pythonHoldingFile(join(dir, 'held.txt'));
    const launch = await scannerWorkerLauncher(process.execPath, [CLI], { sameRights: true });
    const statuses: ScannerStatus[] = [];
    let worker: RemoteHolderSource | null = null;
    const askedOfWorker: string[] = [];
    const scanner = new WatchScanner(await openHolderSource(), {
      openInProcess: () => openHolderSource(),
      startWorker: async () => {
        worker = await RemoteHolderSource.start({ launch, socketDir: join(scratch, 'data') });
        const resolveInWorker = worker.resolveWatchDir.bind(worker);
        worker.resolveWatchDir = (input) => (askedOfWorker.push(input), resolveInWorker(input));
        return worker;
      },
      hint: null,
      onStatus: (status) => statuses.push(status),
    });
    try {
      const watchDir = await scanner.resolveWatchDir(dir);
      const pids = async () => (await scanner.scan({ dirs: [watchDir] })).holders.map((h) => h.pid);
      expect(await pids()).toEqual([holder.pid]);
      expect(scanner.status).toMatchObject({ mode: 'in-process', canElevate: true });

      const status = await scanner.elevate(0);
      expect(statuses.map((s) => s.mode)).toEqual(['starting', 'worker']);
      expect(status).toMatchObject({ mode: 'worker', elevated: true, canElevate: false, message: null }); // root here
      expect(await pids()).toEqual([holder.pid]);
      expect(await scanner.processExtras(holder.pid, [])).toMatchObject({ cwdUnreadableReason: null, handleCount: expect.any(Number) }); // from the worker
      // A dir is resolved in the host even now (the elevated worker's cwd, environment and drives are not the user's).
      expect(await scanner.resolveWatchDir(dir)).toEqual(watchDir);
      expect(askedOfWorker).toEqual([]);

      process.kill(worker!.workerPid, 'SIGKILL');
      expect(await pids()).toEqual([holder.pid]); // this scan already runs in the host again
      expect(scanner.status).toMatchObject({ mode: 'in-process', canElevate: true });
      expect(scanner.status.message).toMatch(/^The elevated scanner stopped \(.+\); scanning goes on without administrator rights/);
    } finally {
      await scanner.dispose();
    }
  });
});
