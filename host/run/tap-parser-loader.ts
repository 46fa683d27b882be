// The TAP parser for a run's output, loaded when a command's first line says TAP rather than before
// every run: tap-parser and yaml were two thirds of the code `holdwatch run` loaded before starting its
// command, and only TAP runners (bats, prove, node --test without holdwatch's reporter) need them.
// What the stream says meanwhile waits in the SniffingParser with its arrival times.
import type { TapParserSource } from '../../core/runners/sniffing-parser.js';
import type { TapStreamParser } from '../../core/runners/tap.js';

let loaded: typeof TapStreamParser | undefined;
let loading: Promise<void> | undefined;

function startLoading(): Promise<void> {
  // A load that failed leaves TAP to the plain reader (the SniffingParser's end).
  loading ??= import('../../core/runners/tap.js').then(
    (module) => void (loaded = module.TapStreamParser),
    () => undefined,
  );
  return loading;
}

/** null while loading, and starts the load on the first call. */
export const tapParser: TapParserSource = () => {
  const Parser = loaded;
  if (Parser) return (runName, clock) => new Parser(runName, clock);
  void startLoading();
  return null;
};

/**
 * Before the command starts, where loading it mid-run would stall the event loop too long: Windows
 * runs tsc's modules, not the bundle (bin/holdwatch.js), and under Wine their ~60 files took seconds,
 * during which a node --test run's held lock file went unseen by every poll (tests/wine, 3 of 3).
 */
export async function loadTapParserBeforeTheCommand(platform: NodeJS.Platform): Promise<void> {
  if (platform === 'win32') await startLoading();
}

/** Resolves once a load that was started is done (at once when none was). */
export function tapParserSettled(): Promise<void> {
  return loading ?? Promise.resolve();
}
