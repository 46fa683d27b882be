// The run under holdwatch: its state and progress, its output's tail, and a form to start one
// while watching.
import { useState, type FormEvent } from 'react';
import { isDetached } from '../store/derive.js';
import { freezeFailure, startRun, stopRun } from '../store/intents.js';
import { clockTime } from '../format.js';
import { useStore } from '../store/store.js';
import { AnswerBanner } from './AnswerBanner.js';

export function RunPanel() {
  const run = useStore((s) => s.run);
  const dir = useStore((s) => s.watch.dirs[0] ?? '');
  const launchDir = useStore((s) => s.settings.launchDir);
  // A run that failed to start leaves its command in the form, to correct.
  const [command, setCommand] = useState(() => run.commandLine);
  const [cwd, setCwd] = useState(() => run.cwd);
  const [runDir, setRunDir] = useState('');
  const active = run.phase === 'starting' || run.phase === 'running';
  // Attached from a terminal: the run is followed, not ours; its output is in that terminal.
  const attached = run.attachedPid !== null;
  const leftoverFiles = run.record?.leftovers.length ?? 0;
  // "Leftover files": files the run left under the watched dirs; processes that stayed are "outlived the run".
  const counts = `${run.record?.tests.length ?? 0} tests · ${run.failures.length} teardown failure(s) · ${run.record?.holders.length ?? 0} holder(s)${
    leftoverFiles > 0 ? ` · ${leftoverFiles} leftover ${leftoverFiles === 1 ? 'file' : 'files'}` : ''
  }`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void startRun(command, cwd, runDir || dir);
  };
  const form = (
    <form className="run-form" onSubmit={submit}>
      <label>
        <span>Test command</span>
        <input
          aria-label="Test command"
          placeholder="pytest -x tests · bats test/ · go test -json ./..."
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label>
        <span>Working directory</span>
        <input
          aria-label="Working directory"
          placeholder={`${launchDir || 'where holdwatch was started'} (empty: this one)`}
          title="Empty: the directory holdwatch was started in, never the watched one"
          value={cwd}
          onChange={(e) => setCwd(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label>
        <span>Watches</span>
        <input
          aria-label="Directory the run watches"
          placeholder={dir}
          title={`Directory the run watches (default: ${dir})`}
          value={runDir}
          onChange={(e) => setRunDir(e.target.value)}
          spellCheck={false}
        />
      </label>
      <button type="submit" disabled={!command.trim()}>
        Run
      </button>
    </form>
  );

  return (
    <section className="run" aria-label="Test run">
      <AnswerBanner />
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
      <FailureBanner />
      {attached && !run.output && <p className="dim output-hint">Its output is in the terminal that runs it.</p>}
      {run.output && (
        <details className="output">
          <summary>Output ({lineCount(run.output)})</summary>
          <pre className="mono">{run.output}</pre>
        </details>
      )}
      {/* After a run the form folds away: the answer gets the room, another run is a click away. */}
      {!active &&
        (run.phase === 'idle' ? (
          form
        ) : (
          <details className="run-again" open={run.phase === 'error'}>
            <summary>Run another command</summary>
            {form}
          </details>
        ))}
    </section>
  );
}

/**
 * A teardown failed: said in words at the top, with the way to the moment it happened (the table
 * frozen on the holders then, the blockers marked). One line per failure, at most three.
 */
function FailureBanner() {
  const failures = useStore((s) => s.run.failures);
  const frozen = useStore((s) => s.selection.frozenFailure);
  if (failures.length === 0) return null;
  return (
    <div className="failure-banner" role="alert" data-testid="failure-banner">
      {failures.slice(0, 3).map((f, i) => (
        <p key={`${f.at}-${i}`}>
          <strong>Teardown failed{f.test ? ` in ${f.test}` : ''}</strong> at <span className="time">{clockTime(Date.parse(f.at))}</span>
          {f.path ? (
            <>
              {' '}
              on <span className="mono wrap">{f.path}</span>
            </>
          ) : null}{' '}
          — {f.holders.length === 0 ? 'no holder seen at that moment' : `${f.holders.length} ${f.holders.length === 1 ? 'holder' : 'holders'} blocked it`}
          {frozen === i ? (
            <button onClick={() => freezeFailure(null)}>Back to live</button>
          ) : (
            <button className="primary" onClick={() => freezeFailure(i)}>
              Show that moment
            </button>
          )}
        </p>
      ))}
      {failures.length > 3 && <p className="dim">and {failures.length - 3} more, marked on the timeline</p>}
    </div>
  );
}

/** `1 line`, `12 lines`: the output's lines, a last one without its newline counted too. */
function lineCount(output: string): string {
  const n = output.split('\n').length - (output.endsWith('\n') ? 1 : 0);
  return `${n} ${n === 1 ? 'line' : 'lines'}`;
}
