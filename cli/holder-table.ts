// Human-readable holder tables for `scan` and the live `watch` view.
import stringWidth from 'string-width';
import type { Holder } from '../contract/holders.js';
import { POSIX_STYLE, relativeDisplay, WINDOWS_STYLE } from '../core/paths.js';
import { terminalCell } from '../core/report/text.js';

export function holderPathForDisplay(holder: Holder): string {
  const style = holder.path.includes('\\') ? WINDOWS_STYLE : POSIX_STYLE;
  const relative = relativeDisplay(holder.path, holder.watchedDir, style);
  return holder.deleted ? `${relative} (deleted)` : relative;
}

const HEAD = ['PROCESS', 'PID', 'KIND', 'HANDLE', 'PATH'];
const GAP = '    ';

/**
 * Columns aligned by display width (a CJK process name is two columns a character), four spaces apart,
 * the last column unpadded. Linear in the rows, since `scan` and every redraw of `watch` pay for it.
 */
export function formatHolderTable(holders: readonly Holder[]): string {
  // A file name may hold a newline or an escape sequence; one row stays one line, and inert.
  const rows = [HEAD, ...holders.map((h) => [h.processName, String(h.pid), h.kind, h.handle ?? '', holderPathForDisplay(h)].map(terminalCell))];
  // Folded, not spread into Math.max: 100,000 holders would pass the call's argument limit.
  const widths = HEAD.map((_, column) => rows.reduce((widest, row) => Math.max(widest, displayWidth(row[column]!)), 0));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column]! - displayWidth(cell))))
        .join(GAP)
        .trimEnd(),
    )
    .join('\n');
}

/** Terminal columns `text` takes; ASCII (nearly every cell) without the library's regex work. */
function displayWidth(text: string): number {
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}
