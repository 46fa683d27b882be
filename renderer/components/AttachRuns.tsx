// Start: the runs `holdwatch run` is recording in terminals now, refreshed every 2 s while the start
// screen shows. Clicking one watches its directory and follows it: the run view, as for a run started here.
import { useEffect, useState } from 'react';
import { ageText } from '../format.js';
import { attachRun, refreshActiveRuns } from '../store/intents.js';
import { useStore } from '../store/store.js';

const REFRESH_MS = 2000;

export function AttachRuns() {
  const { runs, loaded, error } = useStore((s) => s.attach);
  // The ages are as of the last refresh: rendering reads no clock.
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const refresh = () => {
      setNowMs(Date.now());
      void refreshActiveRuns();
    };
    void refreshActiveRuns();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  return (
    <section className="start attach-runs" aria-label="Attach to a running holdwatch run">
      <h2>
        Attach to a running <code>holdwatch run</code>
      </h2>
      {!loaded && <p className="dim">Looking for runs…</p>}
      {loaded && runs.length === 0 && (
        <p className="hint" data-testid="no-active-runs">
          No <code>holdwatch run</code> is going right now. Start one in a terminal, e.g.{' '}
          <code className="mono">holdwatch run --watch /tmp/work -- pytest -x tests</code>, and it shows up here (with the same data directory,{' '}
          <code>HOLDWATCH_DATA_DIR</code>).
        </p>
      )}
      {runs.length > 0 && (
        <ul className="active-runs">
          {runs.map((run) => (
            <li key={run.runId}>
              <button
                type="button"
                className="active-run"
                data-testid="active-run"
                onClick={() => void attachRun(run)}
                title={`Follow run ${run.runId} (holdwatch run, pid ${run.pid}); the run is never stopped from here`}
              >
                <span className="run-facts">
                  <span className="mono command">{run.command.join(' ')}</span>
                  <span className="dim">
                    in <span className="mono">{run.cwd}</span> · watching <span className="mono">{run.watched.join(', ')}</span> · started{' '}
                    {ageText(nowMs - Date.parse(run.startedAt))} ago
                  </span>
                </span>
                <span className="attach-cta">Attach</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
