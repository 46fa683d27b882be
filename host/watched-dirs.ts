// holdwatch never writes inside a watched directory: every place it writes (journals, inbox, reports)
// is checked here first, and refused with one line when it lies inside one.
import { BadInputError } from '../core/errors.js';
import { isUnder, pathStyleOf } from '../core/paths.js';
import type { WatchDir } from '../core/platform.js';

export function refuseInsideWatched(path: string, dirs: readonly WatchDir[], message: (dir: WatchDir) => string): void {
  const inside = dirs.find((d) => isUnder(path, d.display, pathStyleOf(d)));
  if (inside) throw new BadInputError(message(inside));
}
