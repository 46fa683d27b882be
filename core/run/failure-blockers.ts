// Which holders blocked a teardown failure, from the scan the failure line set off: those holding the
// failed path then, and those that held it just before (runners may print the failure only after the
// holder exited), less the cleanup's own fresh handles.
import type { Holder } from '../../contract/holders.js';
import { processKey } from '../../contract/identity.js';
import { holderKey, type PollOutcome } from '../watch.js';
import { blockersOf, holdersOnPath, isOnOrUnder } from './holders-on-path.js';

/**
 * A holder of the failed path last seen this shortly before the failure line still counts as its
 * blocker: runners may print the failure only after the holder exited (node --test prints a file's
 * `after` hook error once that file's process has ended, and the exit closed the handle).
 */
export const JUST_GONE_MS = 1000;

/** A holder gone in the last JUST_GONE_MS, with when it was last seen and when it had appeared. */
export interface JustGone {
  holder: Holder;
  lastSeenAtMs: number;
  appearedAtMs: number | undefined;
}

export interface FailureScene {
  /** When the failure line arrived. */
  atMs: number;
  /** The path the failure names, when it names one. */
  path: string | null;
  /** The scan the failure line set off. */
  outcome: PollOutcome;
  /** The holders as of that scan. */
  current: readonly Holder[];
  justGone: ReadonlyMap<string, JustGone>;
  /** When each current holder first appeared (its scan's end), by key. */
  appearedAt: ReadonlyMap<string, number>;
  /** A holder in one of the run's processes. */
  isKnown: (holder: Holder) => boolean;
}

/** The keys of the holders that blocked the failure, each once. */
export function failureBlockers({ atMs, path, outcome, current, justGone, appearedAt, isKnown }: FailureScene): string[] {
  const heldUntilJustNow =
    path === null
      ? []
      : holdersOnPath(
          [...justGone.values()].filter((g) => g.lastSeenAtMs >= atMs - JUST_GONE_MS).map((g) => g.holder),
          path,
        );
  // A handle gone just now counts for a process that no longer holds the path (it exited, or
  // closed it after the failure), not for one that still does: rmSync's own lstat/chmod retries
  // open attribute-only handles to the file it cannot delete, a second "blocker" in the
  // process that holds it (seen under Wine, in CI).
  const stillHolding = new Set(path === null ? [] : holdersOnPath(current, path).map(processKey));
  // The cleanup's own handles are not what blocked it: a directory a run process had just opened
  // to list and delete (rmtree's scandir, `rm -r`), the failed path or a folder around it.
  const opened = new Set(outcome.events.filter((e) => e.type === 'appeared').map((e) => holderKey(e.holder)));
  // "Just": in this poll, or within JUST_GONE_MS before the failure line; a poll that came
  // between the listing and the failed delete met the handle first (seen in a loaded full run).
  // A handle closed again before the failure line (`rm -r` lists, closes, then rmdir fails) keeps
  // when it appeared in justGone: it is the cleanup's own all the same.
  const appearedAtMs = (h: Holder) => appearedAt.get(holderKey(h)) ?? justGone.get(holderKey(h))?.appearedAtMs ?? -Infinity;
  const freshlyOpened = (h: Holder) => opened.has(holderKey(h)) || appearedAtMs(h) >= atMs - JUST_GONE_MS;
  const ownCleanup = (h: Holder) => path !== null && h.kind === 'dir' && freshlyOpened(h) && isKnown(h) && isOnOrUnder(path, h.path);
  // A holder gone and seen again (Windows names it anew after an unnamed poll) is one blocker, once.
  const blockers = blockersOf(
    [...current, ...heldUntilJustNow.filter((h) => !stillHolding.has(processKey(h)))].filter((h) => !ownCleanup(h)),
    path,
  );
  return [...new Set(blockers.map(holderKey))];
}
