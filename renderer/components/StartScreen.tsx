// Start: choose the directory (default: the system temp dir; recent ones; any path form pasted or
// dropped), optionally a test command to run under holdwatch, and where it runs. What is typed lives
// in the store: an error never clears it.
import { useEffect, useState, type DragEvent, type FormEvent, type ReactNode } from 'react';
import { resolvePath } from '../resolve-path.js';
import type { StartDraft } from '../store/slices.js';
import { useStore } from '../store/store.js';
import { commandLineProblem, loadStartFacts, messageOf, setStartDraft, startWatch, startWatchAndRun } from '../store/intents.js';

export function StartScreen() {
  const defaultDir = useStore((s) => s.settings.defaultDir);
  const launchDir = useStore((s) => s.settings.launchDir);
  const recentDirs = useStore((s) => s.settings.recentDirs);
  const watchError = useStore((s) => s.watch.error);
  const runError = useStore((s) => (s.run.phase === 'error' ? s.run.error : null));
  const { dir: typedDir, command, cwd } = useStore((s) => s.settings.startDraft);
  // An empty field shows the last directory (else the temp dir) as its placeholder, and uses it.
  const fallbackDir = recentDirs[0] ?? defaultDir;
  const dir = typedDir || fallbackDir;
  const [commandError, setCommandError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    loadStartFacts().catch((e: unknown) => setLoadError(messageOf(e)));
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A command that cannot be run as typed starts nothing: the form stays, with what was typed.
    const problem = command.trim() ? commandLineProblem(command) : null;
    setCommandError(problem && `The test command: ${problem}.`);
    if (problem) return;
    void (command.trim() ? startWatchAndRun(dir, command, cwd) : startWatch(dir));
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    const text = event.dataTransfer.getData('text/plain') || event.dataTransfer.getData('text/uri-list');
    if (text) setStartDraft({ dir: text.replace(/^file:\/\//, '').trim() });
  };
  const launchedIn = launchDir || 'the directory holdwatch was started in';

  return (
    <form className="start" onSubmit={submit} onDragOver={(e) => e.preventDefault()} onDrop={drop}>
      <h1>Which process holds this directory?</h1>
      <p className="hint">holdwatch shows, live, every process holding a file under a directory, and which test put it there.</p>
      {/* The default is the placeholder, never the value: it arrives after the page, and written into a
          focused field it raced the typing ("/tmp" + what was typed: "/tmp/tmp/..."). */}
      <Field
        id="dir"
        label="Directory to watch"
        value={typedDir}
        placeholder={fallbackDir ? `${fallbackDir} (empty: this one)` : '/tmp, C:\\Users\\me\\AppData\\Local\\Temp, \\\\?\\C:\\..., /c/Users/...'}
        autoFocus
      >
        <Resolved base={launchDir} typed={typedDir} testId="dir-resolved" what="Watches" />
        {recentDirs.length > 0 && (
          <div className="recent" aria-label="Recent directories">
            {recentDirs.map((d) => (
              <button type="button" key={d} className="chip" onClick={() => setStartDraft({ dir: d })} title={d}>
                {d}
              </button>
            ))}
          </div>
        )}
      </Field>
      <details className="run-options" open={Boolean(command || cwd)}>
        <summary>Run a test command under holdwatch (optional)</summary>
        <div className="run-fields">
          <Field id="command" label="Test command" value={command} placeholder="pytest -x tests    ·    bats test/    ·    go test -json ./..." />
          <Field id="cwd" label="Working directory" value={cwd} placeholder={`${launchedIn} (empty: this one)`}>
            {cwd.trim() ? (
              <Resolved base={launchDir} typed={cwd} testId="cwd-resolved" what="Runs in" />
            ) : (
              <small className="resolved" data-testid="cwd-resolved">
                Runs in <span className="mono">{launchedIn}</span>, where holdwatch was started (never the watched directory: the runner would hold it)
              </small>
            )}
          </Field>
        </div>
      </details>
      <button type="submit" className="primary">
        {command.trim() ? 'Watch and run' : 'Watch'}
      </button>
      {[...new Set([commandError, watchError, runError, loadError])].filter(Boolean).map((e) => (
        <p key={e} className="error" role="alert">
          {e}
        </p>
      ))}
    </form>
  );
}

/** One field of the form: its label above its input, what it says about the value under it; typed into the store's draft. */
function Field({
  id,
  label,
  value,
  placeholder,
  autoFocus,
  children,
}: {
  id: keyof StartDraft;
  label: string;
  value: string;
  placeholder: string;
  autoFocus?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        value={value}
        onChange={(e) => setStartDraft({ [id]: e.target.value })}
        placeholder={placeholder}
        spellCheck={false}
        autoFocus={autoFocus}
      />
      {children}
    </div>
  );
}

/** A relative path, shown resolved against where holdwatch was started, before anything uses it. */
function Resolved({ base, typed, testId, what }: { base: string; typed: string; testId: string; what: string }) {
  const resolved = resolvePath(base, typed);
  if (!typed.trim() || resolved === typed.trim()) return null;
  return (
    <small className="resolved" data-testid={testId}>
      {what} <span className="mono">{resolved}</span> (relative to where holdwatch was started)
    </small>
  );
}
