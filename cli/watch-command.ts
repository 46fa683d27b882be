// `holdwatch watch <dir> [--json] [--interval ms]`: live. JSON lines with --json; a table redrawn in
// place on a terminal; one line per event when piped. Ctrl-C / SIGTERM close everything, exit 0.
import type { Holder, WatchEvent } from '../contract/holders.js';
import { DisposableStore } from '../core/disposable-store.js';
import { terminalCell } from '../core/report/text.js';
import { sortHolders } from '../core/snapshot.js';
import { Watcher } from '../core/watch.js';
import { openHolderSource } from '../native/index.js';
import { formatHolderTable, holderPathForDisplay } from './holder-table.js';
import { resolveAndStepOut } from '../host/resolve-dir.js';
import { watchedDirsGuard } from '../host/watched-dir-identity.js';
import { systemClock } from '../host/system-clock.js';
import { openWatchPacing } from '../host/watch-pacing.js';

export interface WatchOptions {
  json?: boolean;
  intervalMs: number;
}

export async function watchCommand(dirInput: string, options: WatchOptions): Promise<number> {
  // The watcher, its pacing, then the backend: released in that order, each even if one before fails.
  const owned = new DisposableStore();
  const source = owned.add(await openHolderSource({ walkThread: 'worker' }));
  try {
    const dir = await resolveAndStepOut(source, dirInput, process);
    const view = options.json ? jsonLinesView() : process.stdout.isTTY ? liveTableView(dir.display) : eventLinesView();
    const stopped = waitForStopSignal();
    let failure: Error | undefined;
    const pacing = owned.add(await openWatchPacing([dir], options.intervalMs));
    const watcher: Watcher = new Watcher({
      source,
      dirs: [dir],
      clock: systemClock,
      fullIntervalMs: options.intervalMs,
      ...pacing.options,
      beforePoll: watchedDirsGuard([dir]),
      onPoll: ({ events }) => view(events, watcher.current()),
      onError: (error) => {
        failure = error instanceof Error ? error : new Error(String(error));
        stopped.stop();
      },
    });
    owned.add(watcher);
    watcher.start();
    // Piped output stays pure data; the notice goes to stderr (the TTY view has its own header).
    if (!process.stdout.isTTY) process.stderr.write(`holdwatch: watching ${terminalCell(dir.display)} — Ctrl-C to stop\n`);
    await stopped.promise;
    if (failure) throw failure;
    return 0;
  } finally {
    await owned.dispose();
  }
}

type View = (events: WatchEvent[], current: Holder[]) => void;

function jsonLinesView(): View {
  return (events) => {
    for (const event of events) process.stdout.write(JSON.stringify(event) + '\n');
  };
}

function eventLinesView(): View {
  return (events) => {
    for (const { type, at, holder } of events) {
      process.stdout.write(
        `${at} ${type === 'appeared' ? '+' : '-'} ${terminalCell(holder.processName)}[${holder.pid}] ${holder.kind} ${terminalCell(holderPathForDisplay(holder))}\n`,
      );
    }
  };
}

/** Redraws the whole table in place: move up over the last frame, clear to the end, draw. */
function liveTableView(dirDisplay: string): View {
  let lastLines = 0;
  let first = true;
  return (events, current) => {
    if (!first && events.length === 0) return;
    first = false;
    const header = `Watching ${terminalCell(dirDisplay)} — ${current.length} handle(s), ${new Set(current.map((h) => h.pid)).size} process(es) — ${new Date().toLocaleTimeString()} — Ctrl-C to stop`;
    // Keep the frame within the terminal, or moving the cursor up cannot reach its top.
    const room = Math.max(3, (process.stdout.rows || 24) - 4);
    const shown = sortHolders(current).slice(0, room);
    const more = current.length - shown.length;
    const body = current.length === 0 ? 'Nothing holds it.' : formatHolderTable(shown) + (more > 0 ? `\n… ${more} more (use --json for all)` : '');
    const frame = `${header}\n${body}\n`;
    process.stdout.write((lastLines > 0 ? `\x1b[${lastLines}A\x1b[0J` : '') + frame);
    lastLines = frame.split('\n').length - 1;
  };
}

/** Resolves on SIGINT/SIGTERM or a closed stdout (`| head`), or when stop() is called. */
function waitForStopSignal(): { promise: Promise<void>; stop: () => void } {
  let stop!: () => void;
  const promise = new Promise<void>((resolve) => {
    stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stdout.off('error', onStdoutError);
      resolve();
    };
  });
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.on('error', onStdoutError);
  return { promise, stop };
}
