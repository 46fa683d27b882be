// Human-readable holder tables for `scan` and the live `watch` view.
import type TableModule from 'cli-table3';
import { createRequire } from 'node:module';
import type { Holder } from '../contract/holders.js';
import { POSIX_STYLE, relativeDisplay, WINDOWS_STYLE } from '../core/paths.js';

export function holderPathForDisplay(holder: Holder): string {
  const style = holder.path.includes('\\') ? WINDOWS_STYLE : POSIX_STYLE;
  const relative = relativeDisplay(holder.path, holder.watchedDir, style);
  return holder.deleted ? `${relative} (deleted)` : relative;
}

// Loaded on first use: `scan --json` never pays its 25-45 ms of start-up.
const require = createRequire(import.meta.url);

export function formatHolderTable(holders: readonly Holder[]): string {
  const Table = require('cli-table3') as typeof TableModule;
  const table = new Table({
    head: ['PROCESS', 'PID', 'KIND', 'HANDLE', 'PATH'],
    style: { head: [], border: [], compact: true },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
  });
  for (const h of holders) table.push([h.processName, String(h.pid), h.kind, h.handle ?? '', holderPathForDisplay(h)]);
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd().replace(/^ /, ''))
    .join('\n');
}
