// `holdwatch scan <dir> [--json] [--check]`: one snapshot.
import { EXIT_HOLDERS_FOUND } from '../contract/exit-codes.js';
import { terminalCell } from '../core/report/text.js';
import { scanDir } from '../host/holdwatch.js';
import { formatHolderTable } from './holder-table.js';
import { jsonPieces } from './json-pieces.js';
import { writeStdoutSync } from './stdout-sync.js';
import type { ScanOptions } from '../contract/scan-options.js';
import type { Snapshot } from '../contract/holders.js';

export async function scanCommand(dirInput: string, options: ScanOptions): Promise<number> {
  const snapshot = await scanDir(dirInput, { ...options, workingDirectory: process });
  if (options.json) {
    writeStdoutSync(jsonLine(snapshot));
  } else {
    const count = snapshot.holders.length;
    const pids = new Set(snapshot.holders.map((h) => h.pid)).size;
    const dir = terminalCell(snapshot.dir);
    const denied = snapshot.denied.length > 0 ? `${deniedLine(snapshot.denied)}\n` : '';
    writeStdoutSync(
      (count === 0 ? `Nothing holds ${dir}\n` : `${formatHolderTable(snapshot.holders)}\n\n${count} handle(s) held by ${pids} process(es) under ${dir}\n`) +
        denied,
    );
  }
  return options.check && snapshot.holders.length > 0 ? EXIT_HOLDERS_FOUND : 0;
}

/** The snapshot as one line of JSON, in pieces (json-pieces.ts). */
function* jsonLine(snapshot: Snapshot): Generator<string> {
  yield* jsonPieces(snapshot, 'holders');
  yield '\n';
}

/** How many processes could not be inspected, and what would help: elevation, except for those Windows protects. */
export function deniedLine(denied: readonly { protected?: boolean }[], elevated = process.platform !== 'win32' && process.getuid?.() === 0): string {
  const shielded = denied.filter((d) => d.protected).length;
  const rest = denied.length - shielded;
  const parts = [];
  // Root already has the rights: what stays closed to it is another namespace's or the kernel's.
  if (rest > 0)
    parts.push(
      elevated
        ? `${rest} process(es) could not be inspected even as root (they ended mid-read, or live where /proc does not show them)`
        : `${rest} process(es) could not be inspected (run as root or administrator to see them)`,
    );
  if (shielded > 0) parts.push(`${shielded} protected by Windows (Defender, csrss, System...: no scan may open them, elevated or not)`);
  return `${parts.join('; ')}; --json lists them`;
}
