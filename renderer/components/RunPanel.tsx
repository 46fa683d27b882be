// The run under holdwatch: its state and progress, its output's tail, and a form to start one
// while watching.
import { useState, type FormEvent } from 'react';
import { startRun, stopRun } from '../store/intents.js';
import { useStore } from '../store/store.js';

export function RunPanel() {
  const run = useStore((s) => s.run);
  const dir = useStore((s) => s.watch.dirs[0] ?? '');
  const [command, setCommand] = useState('');
  const [cwd, setCwd] = useState('');
  const [runDir, setRunDir] = useState('');
  const active = run.phase === 'starting' || run.phase === 'running';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void startRun(command, cwd, runDir || dir);
  };

  return (
    <section className="run" aria-label="Test run">
      {run.phase !== 'idle' && (
        <div className={`run-status ${run.phase}`} data-testid="run-status">
          <span className="mono">{run.command.join(' ')}</span>
          {run.phase === 'starting' && <span className="progress"> Starting…</span>}
          {run.phase === 'running' && <span className="progress"> Running{run.lastTest ? ` — ${run.lastTest.name}${run.lastTest.phase ? ` (${run.lastTest.phase})` : ''}` : ''}</span>}
          {run.phase === 'ended' && <span> Ended, exit code {run.exitCode ?? '—'} · {run.record?.tests.length ?? 0} tests · {run.failures.length} teardown failure(s) · {run.record?.holders.length ?? 0} holder(s)</span>}
          {run.phase === 'error' && <span className="error" role="alert"> {run.error}</span>}
          {active && <button onClick={() => void stopRun()}>Stop run</button>}
        </div>
      )}
      {run.output && (
        <details className="output">
          <summary>Output ({run.output.split('\n').length - 1} lines)</summary>
          <pre className="mono">{run.output}</pre>
        </details>
      )}
      {!active && (
        <form className="run-form" onSubmit={submit}>
          <input aria-label="Test command" placeholder="Test command to run under holdwatch, e.g. pytest -x tests" value={command} onChange={(e) => setCommand(e.target.value)} spellCheck={false} />
          <input aria-label="Working directory" placeholder="Working directory (default: the watched dir)" value={cwd} onChange={(e) => setCwd(e.target.value)} spellCheck={false} />
          <input aria-label="Directory the run watches" placeholder={`Directory the run watches (default: ${dir})`} value={runDir} onChange={(e) => setRunDir(e.target.value)} spellCheck={false} />
          <button type="submit" disabled={!command.trim()}>Run</button>
        </form>
      )}
    </section>
  );
}
