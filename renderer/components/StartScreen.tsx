// Start: choose the directory (default: the system temp dir; recent ones; any path form pasted or
// dropped), optionally a test command to run under holdwatch.
import { useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { useStore } from '../store/store.js';
import { commandLineProblem, loadStartFacts, messageOf, startRun, startWatch } from '../store/intents.js';

export function StartScreen() {
  const defaultDir = useStore((s) => s.settings.defaultDir);
  const recentDirs = useStore((s) => s.settings.recentDirs);
  const watchError = useStore((s) => s.watch.error);
  const runError = useStore((s) => (s.run.phase === 'error' ? s.run.error : null));
  // What the user typed; an empty field shows the last directory (else the temp dir) as its placeholder, and uses it.
  const [typedDir, setDir] = useState('');
  const fallbackDir = recentDirs[0] ?? defaultDir;
  const dir = typedDir || fallbackDir;
  const [commandError, setCommandError] = useState<string | null>(null);
  const [command, setCommand] = useState('');
  const [cwd, setCwd] = useState('');
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
    if (command.trim()) void startWatch(dir).then(() => startRun(command, cwd, dir));
    else void startWatch(dir);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    const text = event.dataTransfer.getData('text/plain') || event.dataTransfer.getData('text/uri-list');
    if (text) setDir(text.replace(/^file:\/\//, '').trim());
  };

  return (
    <form className="start" onSubmit={submit} onDragOver={(e) => e.preventDefault()} onDrop={drop}>
      <h1>Which process holds this directory?</h1>
      <p className="hint">holdwatch shows, live, every process holding a file under a directory, and which test put it there.</p>
      <label htmlFor="dir">Directory to watch</label>
      <input
        id="dir"
        name="dir"
        // The default is the placeholder, never the value: it arrives after the page, and written into a
        // focused field it raced the typing ("/tmp" + what was typed: "/tmp/tmp/...").
        value={typedDir}
        onChange={(e) => setDir(e.target.value)}
        placeholder={fallbackDir ? `${fallbackDir} (empty: this one)` : '/tmp, C:\\Users\\me\\AppData\\Local\\Temp, \\\\?\\C:\\..., /c/Users/...'}
        spellCheck={false}
        autoFocus
      />
      {recentDirs.length > 0 && (
        <div className="recent" aria-label="Recent directories">
          {recentDirs.map((d) => (
            <button type="button" key={d} className="chip" onClick={() => setDir(d)} title={d}>
              {d}
            </button>
          ))}
        </div>
      )}
      <details className="run-options" open={Boolean(command)}>
        <summary>Run a test command under holdwatch (optional)</summary>
        <label htmlFor="command">Test command</label>
        <input
          id="command"
          name="command"
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          placeholder="pytest -x tests    ·    bats test/    ·    go test -json ./..."
          spellCheck={false}
        />
        <label htmlFor="cwd">Working directory</label>
        <input id="cwd" name="cwd" value={cwd} onChange={(e) => setCwd(e.target.value)} placeholder="defaults to the watched directory" spellCheck={false} />
      </details>
      <button type="submit" className="primary">
        {command.trim() ? 'Watch and run' : 'Watch'}
      </button>
      {[commandError, watchError, runError, loadError].filter(Boolean).map((e) => (
        <p key={e} className="error" role="alert">
          {e}
        </p>
      ))}
    </form>
  );
}
