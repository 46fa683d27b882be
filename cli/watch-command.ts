// `holdwatch watch <dir> [--json] [--interval ms] [--follow-dir]`: live. JSON lines with --json; a table
// redrawn in place on a terminal; one line per event when piped. Ctrl-C / SIGTERM close everything,
// exit 0; the dir deleted or replaced: one line, exit 2 (replaced, with --follow-dir: one line, go on).
import type { Holder, WatchEvent } from '../contract/holders.js';
import { terminalCell } from '../core/report/text.js';
import { sortHolders } from '../core/snapshot.js';
import { watchDirs } from '../host/holdwatch.js';
import { formatHolderTable, holderPathForDisplay } from './holder-table.js';

export interface WatchOptions {
  json?: boolean;
  intervalMs: number;
  /** Watch what the dir's name points to when it is replaced, rather than stop (exit 2). */
  followDir?: boolean;
}

export async function watchCommand(dirInput: string, options: WatchOptions): Promise<number> {
  let dirDisplay = dirInput;
  let retrying: string | null = null;
  const table = process.stdout.isTTY && !options.json;
  const view = options.json ? jsonLinesView() : table ? liveTableView({ dir: () => dirDisplay, retrying: () => retrying }) : eventLinesView();
  let failure: Error | undefined;
  let current = (): Holder[] => [];
  let stopped: ReturnType<typeof waitForStopSignal> | undefined;
  const watch = await watchDirs([dirInput], {
    intervalMs: options.intervalMs,
    workingDirectory: process,
    onPoll: view,
    onError: (error) => {
      failure = error instanceof Error ? error : new Error(String(error));
      stopped?.stop();
    },
    // One line when scans start failing and one when they work again; a table shows it in its header.
    onRetrying: (sentence) => {
      if (!table && retrying === null) process.stderr.write(`holdwatch: ${terminalCell(sentence)}\n`);
      retrying = sentence;
      if (table) view([], current());
    },
    onRecovered: () => {
      retrying = null;
      if (!table) process.stderr.write('holdwatch: scans work again\n');
    },
    ...(options.followDir ? { onFollowDir: (sentence: string) => process.stderr.write(`holdwatch: ${terminalCell(sentence)}\n`) } : {}),
  });
  try {
    dirDisplay = watch.dirs[0]!;
    current = () => watch.current();
    stopped = waitForStopSignal();
    if (failure) stopped.stop();
    if (!process.stdout.isTTY) process.stderr.write(`holdwatch: watching ${terminalCell(dirDisplay)} — Ctrl-C to stop\n`);
    await stopped.promise;
    if (failure) throw failure;
    return 0;
  } finally {
    await watch.stop();
  }
}

type View = (events: WatchEvent[], current: Holder[]) => void;

function jsonLinesView(): View {
  return (events) => {
    for (const event of events) process.stdout.write(JSON.stringify(event) + '\n');
  };
}

/** `~`: the holder's process exec'd and the row shows what it runs now. */
const EVENT_MARKS: Record<WatchEvent['type'], string> = { appeared: '+', gone: '-', changed: '~' };

function eventLinesView(): View {
  return (events) => {
    for (const { type, at, holder } of events) {
      process.stdout.write(
        `${at} ${EVENT_MARKS[type]} ${terminalCell(holder.processName)}[${holder.pid}] ${holder.kind} ${terminalCell(holderPathForDisplay(holder))}\n`,
      );
    }
  };
}

/** Redraws the whole table in place: move up over the last frame, clear to the end, draw. */
function liveTableView({ dir, retrying }: { dir: () => string; retrying: () => string | null }): View {
  let lastLines = 0;
  let lastRetrying: string | null = null;
  let first = true;
  return (events, current) => {
    if (!first && events.length === 0 && retrying() === lastRetrying) return;
    first = false;
    lastRetrying = retrying();
    const state = lastRetrying === null ? new Date().toLocaleTimeString() : terminalCell(lastRetrying);
    const header = `Watching ${terminalCell(dir())} — ${current.length} handle(s), ${new Set(current.map((h) => h.pid)).size} process(es) — ${state} — Ctrl-C to stop`;
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
