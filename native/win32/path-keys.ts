// Kernel and DOS names -> the key they are matched by (core's windowsMatchKey) and the DOS form users
// see (kernelToDos). Both need the QueryDosDeviceW table; both are remembered per name, so a
// steady-state poll computes nothing for names it has already seen.
import { isKernelPath, kernelToDos, normalizeWindowsPath, windowsMatchKey, type DosDeviceTable } from './windows-paths.js';
import { logicalDrives, queryDosDevice } from './kernel32.js';

export interface PathKey {
  /** Folded canonical form: compare with `isUnder` and a case-sensitive style. */
  key: string;
  /** What users see: `C:\x`, `\\server\share\x`; the raw name when no drive maps its device. */
  display: string;
}

/**
 * The drive table (`C:` -> `\Device\HarddiskVolume3`). Re-read at most every `refreshMs`: under Wine
 * one QueryDosDeviceW costs ~140 us, and drive letters change far less often than a poll runs.
 */
export class DosDevices {
  private table: DosDeviceTable = {};
  private text = '';
  private readAtMs = -Infinity;
  /** Bumped when the table's content changes: keys computed with an older version are stale. */
  version = 0;

  constructor(
    private readonly refreshMs = 5000,
    private readonly now: () => number = () => performance.now(),
    private readonly read: () => Record<string, string> = readDeviceTable,
  ) {}

  current(): DosDeviceTable {
    const now = this.now();
    if (now - this.readAtMs < this.refreshMs) return this.table;
    this.readAtMs = now;
    const next = this.read();
    const text = JSON.stringify(next);
    if (text !== this.text) {
      this.text = text;
      this.table = Object.freeze(next);
      this.version++;
    }
    return this.table;
  }
}

function readDeviceTable(): Record<string, string> {
  const table: Record<string, string> = {};
  for (const drive of logicalDrives()) {
    const target = queryDosDevice(drive);
    if (target) table[drive] = target;
  }
  return table;
}

/**
 * Keys of every name seen, remembered across scans (module paths repeat across processes, so the
 * memo stays small); cleared when the drive table changes or the memo grows past `limit`.
 */
export class PathKeys {
  private known = new Map<string, PathKey>();
  private version = -1;
  private table: DosDeviceTable = {};

  constructor(
    private readonly devices: DosDevices,
    private readonly limit = 50_000,
  ) {}

  /** Call once per scan, before `keyOf`: picks up a changed drive table. */
  begin(): void {
    // One table for the whole scan, so every key of a scan is computed against the same drives.
    this.table = this.devices.current();
    if (this.devices.version !== this.version || this.known.size > this.limit) {
      this.version = this.devices.version;
      this.known.clear();
    }
  }

  /** The drive table version the keys are computed against (cached keys elsewhere compare it). */
  get tableVersion(): number {
    return this.version;
  }

  /** The drive table of the current scan. */
  get devicesTable(): DosDeviceTable {
    return this.table;
  }

  keyOf(name: string): PathKey {
    let entry = this.known.get(name);
    if (!entry) {
      entry = computeKey(name, this.table);
      this.known.set(name, entry);
    }
    return entry;
  }
}

export function computeKey(name: string, devices: DosDeviceTable): PathKey {
  let display = name;
  try {
    display = (isKernelPath(name) || name.startsWith('\\\\?\\') ? kernelToDos(name, devices) : normalizeWindowsPath(name)) ?? name;
  } catch {
    // Not a path Win32 can spell (a device name): shown as the kernel gave it.
  }
  let key: string;
  try {
    key = windowsMatchKey(name, { devices });
  } catch {
    key = name.toUpperCase();
  }
  return { key, display };
}
