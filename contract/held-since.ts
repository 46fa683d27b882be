// When a holder began holding, as every view draws it: a poll meets a handle only at its next scan
// (seconds late on a loaded machine, or when the run's view attached late), while a probe's open
// record is dated at the open itself.
import type { Attribution } from './runs.js';

/** The open a probe recorded, when it came before the first sighting; else the first sighting (ms). */
export function heldSinceMs({ firstSeenAt, openStack }: Pick<Attribution, 'firstSeenAt' | 'openStack'>): number {
  const firstSeen = Date.parse(firstSeenAt);
  const opened = openStack?.found && openStack.stack.kind === 'open' ? openStack.stack.atMs : Infinity;
  return Math.min(firstSeen, opened);
}
