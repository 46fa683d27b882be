// The run under holdwatch: its state and progress, its output's tail, and a form to start one
// while watching.
import { useState, type FormEvent } from 'react';
import { isDetached } from '../store/derive.js';
import { startRun, stopRun } from '../store/intents.js';
import { useStore } from '../store/store.js';

export function RunPanel() {
  const run = useStore((s) => s.run);
  const dir = useStore((s) => s.watch.dirs[0] ?? '');
  const [command, setCommand] = useState('');
  const [cwd, setCwd] = useState('');
  const [runDir, setRunDir] = useState('');
  const active = run.phase === 'starting' || run.phase === 'running';
  // Attached from a terminal: the run is followed, not ours; its output is in that terminal.
  const attached = run.attachedPid !== null;
  const counts = `${run.record?.tests.length ?? 0} tests · ${run.failures.length} teardown failure(s) · ${run.record?.holders.length ?? 0} holder(s)`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void startRun(command, cwd, runDir || dir);
  };

  return (
    <section className="run" aria-label="Test run">
      {run.phase !== 'idle' && (
        <div className={`run-status ${run.phase}`} data-testid="run-status">
          <span className="mono">{run.command.join(' ')}</span>
          {attached && (
            <span className="badge" title={`Started in a terminal with holdwatch run (pid ${run.attachedPid}); holdwatch follows it and never stops it`}>
              terminal run · pid {run.attachedPid}
            </span>
          )}
          {run.phase === 'starting' && <span className="progress"> {attached ? 'Attaching…' : 'Starting…'}</span>}
          {run.phase === 'running' && (
            <span className="progress">
              {' '}
              {attached ? 'Following' : 'Running'}
              {run.lastTest ? ` — ${run.lastTest.name}${run.lastTest.phase ? ` (${run.lastTest.phase})` : ''}` : ''}
            </span>
          )}
          {run.phase === 'ended' && !isDetached(run) && (
            <span>
              {' '}
              Ended, exit code {run.exitCode ?? '—'} · {counts}
            </span>
          )}
          {isDetached(run) && <span> Detached: the run goes on in its terminal · so far {counts}</span>}
          {run.phase === 'error' && (
            <span className="error" role="alert">
              {' '}
              {run.error}
            </span>
          )}
          {active &&
            (attached ? (
              <button onClick={() => void stopRun()} title="Stop following; the run goes on in its terminal">
                Detach
              </button>
            ) : (
              <button onClick={() => void stopRun()}>Stop run</button>
            ))}
        </div>
      )}
      {attached && !run.output && <p className="dim output-hint">Its output is in the terminal that runs it.</p>}
      {run.output && (
        <details className="output">
          <summary>Output ({run.output.split('\n').length - 1} lines)</summary>
          <pre className="mono">{run.output}</pre>
        </details>
      )}
      {!active && (
        <form className="run-form" onSubmit={submit}>
          <input
            aria-label="Test command"
            placeholder="Test command to run under holdwatch, e.g. pytest -x tests"
            value={command}
            onChange={(e) => setCommand(e.target.value)}
            spellCheck={false}
          />
          <input
            aria-label="Working directory"
            placeholder="Working directory (default: the watched dir)"
            value={cwd}
            onChange={(e) => setCwd(e.target.value)}
            spellCheck={false}
          />
          <input
            aria-label="Directory the run watches"
            placeholder={`Directory the run watches (default: ${dir})`}
            value={runDir}
            onChange={(e) => setRunDir(e.target.value)}
            spellCheck={false}
          />
          <button type="submit" disabled={!command.trim()}>
            Run
          </button>
        </form>
      )}
    </section>
  );
}
