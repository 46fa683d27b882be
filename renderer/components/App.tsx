// The window: a header with the watch's state, the start screen (and the terminal runs to attach to)
// until something is watched, then the table and timeline beside the details and export panels.
import { useState, type CSSProperties, type PointerEvent as ReactPointerEvent } from 'react';
import { elevateScanner, stopRun, stopWatch } from '../store/intents.js';
import { initialState } from '../store/slices.js';
import { useStore } from '../store/store.js';
import { AttachRuns } from './AttachRuns.js';
import { DetailsPanel } from './DetailsPanel.js';
import { ExportPanel } from './ExportPanel.js';
import { HoldersTable } from './HoldersTable.js';
import { RunPanel } from './RunPanel.js';
import { StartScreen } from './StartScreen.js';
import { Timeline } from './Timeline.js';

const DETAILS_WIDTH_KEY = 'holdwatch.detailsWidth';
const clampWidth = (px: number) => Math.round(Math.min(Math.max(px, 320), Math.max(320, window.innerWidth - 480)));

export function App() {
  // By default under a third of the window: at 1280 px the table keeps room for every column.
  const [detailsWidth, setWidth] = useState(() => clampWidth(Number(localStorage.getItem(DETAILS_WIDTH_KEY)) || Math.min(420, window.innerWidth * 0.3)));
  const setDetailsWidth = (px: number) => {
    const width = clampWidth(px);
    setWidth(width);
    localStorage.setItem(DETAILS_WIDTH_KEY, String(width));
  };
  const connection = useStore((s) => s.settings.connection);
  const connectionError = useStore((s) => s.settings.connectionError);
  const watch = useStore((s) => s.watch);
  const runPhase = useStore((s) => s.run.phase);
  const runId = useStore((s) => s.run.runId);
  const started = watch.phase !== 'idle' && !(watch.phase === 'error' && watch.rows.size === 0);

  return (
    <div className="app">
      <header>
        <span className="brand">holdwatch</span>
        {started && (
          <>
            <span className="mono dir" title={watch.dirs[0]}>
              {watch.dirs[0]}
            </span>
            <WatchState />
            <button
              onClick={() =>
                void (watch.phase === 'following' ? stopRun() : stopWatch()).then(() =>
                  // A run that is over (or was followed) leaves with its directory: nothing of it stays on screen.
                  useStore.setState((s) => {
                    const over = s.run.phase !== 'running' && s.run.phase !== 'starting';
                    const fresh = initialState();
                    return {
                      watch: { ...s.watch, phase: 'idle', rows: new Map() },
                      ...(over || watch.phase === 'following' ? { run: fresh.run, selection: fresh.selection } : {}),
                    };
                  }),
                )
              }
            >
              Change directory
            </button>
          </>
        )}
        <span className={`connection ${connection}`} title={connectionError ?? ''}>
          {connection === 'open' ? 'connected' : connection === 'connecting' ? 'connecting…' : 'disconnected'}
        </span>
      </header>
      {connection === 'closed' && (
        <p className="error banner" role="alert">
          {connectionError}
        </p>
      )}
      {!started ? (
        <main className="start-main">
          <StartScreen />
          <AttachRuns />
        </main>
      ) : (
        <main className="workspace" style={{ '--details-width': `${detailsWidth}px` } as CSSProperties}>
          <div className="left">
            <RunPanel />
            <HoldersTable />
            {runPhase !== 'idle' && <Timeline />}
          </div>
          <Splitter width={detailsWidth} onWidth={setDetailsWidth} />
          <aside>
            <DetailsPanel />
            {/* Keyed by run: a new run never shows the last one's export. */}
            <ExportPanel key={runId ?? 'no-run'} />
          </aside>
        </main>
      )}
    </div>
  );
}

/** The bar between the table and the details: drag it (or use the arrow keys) to widen the details. */
function Splitter({ width, onWidth }: { width: number; onWidth: (px: number) => void }) {
  const drag = (event: ReactPointerEvent<HTMLDivElement>) => {
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => onWidth(window.innerWidth - e.clientX - 10);
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the details panel"
      aria-valuenow={width}
      tabIndex={0}
      data-testid="details-splitter"
      onPointerDown={drag}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') onWidth(width + 40);
        if (e.key === 'ArrowRight') onWidth(width - 40);
      }}
    />
  );
}

function WatchState() {
  const { phase, scans, denied, protectedDenied, error, scanner, retrying } = useStore((s) => s.watch);
  // Elevation shows the others; a protected process stays closed to every scan.
  const elevatable = denied - protectedDenied;
  const following = useStore((s) => s.run.phase === 'starting' || s.run.phase === 'running');
  if (phase === 'starting') return <span className="progress">Resolving the directory…</span>;
  if (phase === 'first-scan') return <span className="progress">First scan of every process — this can take a few seconds on a busy machine…</span>;
  if (phase === 'error')
    return (
      <span className="error" role="alert">
        {error}
      </span>
    );
  if (phase === 'idle') return <span className="dim">stopped</span>;
  if (phase === 'following')
    return following ? <span className="live">following the terminal run's scans</span> : <span className="dim">what the terminal run recorded</span>;
  return (
    <span className="live" data-testid="watch-live">
      live · {scans} {scans === 1 ? 'scan' : 'scans'}
      {denied > 0 ? ` · ${denied} ${denied === 1 ? 'process' : 'processes'} not inspectable` : ''}
      {protectedDenied > 0 ? ` (${protectedDenied} protected by Windows: no scan may open ${protectedDenied === 1 ? 'it' : 'them'})` : ''}
      {elevatable > 0 && !scanner ? ' (run as administrator or root to see them)' : ''}
      {retrying && (
        <span className="retrying" role="status" data-testid="watch-retrying">
          {' · '}
          {retrying} The table shows what the last scan that worked found.
        </span>
      )}
      {scanner && <ScannerState denied={elevatable} />}
    </span>
  );
}

/** "Scan as administrator" beside the denied count, its progress and outcome; or the next step where no button can help. */
function ScannerState({ denied }: { denied: number }) {
  const scanner = useStore((s) => s.watch.scanner)!;
  return (
    <>
      {scanner.mode === 'worker' && (
        <span data-testid="scanner-mode">{scanner.elevated ? ' · scanning as administrator' : ' · scanning in a separate worker (not elevated)'}</span>
      )}
      {scanner.mode === 'starting' && (
        <>
          {' · '}
          <span className="progress" data-testid="scanner-starting">
            Starting the elevated scanner (answer the Windows prompt)…
          </span>
        </>
      )}
      {scanner.mode === 'in-process' && denied > 0 && scanner.canElevate && (
        <button className="elevate" data-testid="elevate" onClick={() => void elevateScanner()}>
          Scan as administrator
        </button>
      )}
      {scanner.mode === 'in-process' && denied > 0 && !scanner.canElevate && scanner.hint && (
        <span className="hint" data-testid="scanner-hint">
          {' '}
          · {scanner.hint}
        </span>
      )}
      {scanner.message && (
        <span className="scanner-message" role="status" data-testid="scanner-message">
          {' '}
          · {scanner.message}
        </span>
      )}
    </>
  );
}
