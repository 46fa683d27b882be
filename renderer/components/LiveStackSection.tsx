// The live stack of the selected holder's process, on demand: py-spy/gdb/eu-stack on Linux, a
// minidump plus the thread list on Windows. Progress while it runs, the text with a copy action,
// and what is missing (a tool, a privilege) as a sentence with the next step.
import { useState } from 'react';
import type { Holder } from '../../contract/holders.js';
import { captureLiveStack, messageOf, revealPath } from '../store/intents.js';
import { useStore } from '../store/store.js';
import { clockTime } from '../format.js';

/** Holders carry DOS paths on Windows (`C:\...`, `\\server\share\...`): that host writes a minidump. */
const isWindowsPath = (path: string) => /^(?:[A-Za-z]:\\|\\\\)/.test(path);
/** The threads, without the `note:`/`minidump:` header the panel shows as sentences above; Copy takes it all. */
const threadsText = (text: string) => text.slice(Math.max(0, text.search(/^thread /m)));

export function LiveStackSection({ holder, holderKey }: { holder: Holder; holderKey: string }) {
  const live = useStore((s) => (s.selection.liveStack?.key === holderKey ? s.selection.liveStack : null));
  const [notice, setNotice] = useState<string | null>(null);
  const windows = isWindowsPath(holder.path);
  const result = live?.result ?? null;
  const running = live?.state === 'running';

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setNotice('Stack copied to the clipboard.');
    } catch {
      setNotice('The browser refused the clipboard: select the text in the box and copy it.');
    }
  };
  const capture = () => {
    setNotice(null);
    void captureLiveStack();
  };

  return (
    <div className="live-stack" data-testid="live-stack">
      <h3>Live stack</h3>
      <div className="actions">
        <button onClick={capture} disabled={running}>
          {windows ? 'Save dump + threads' : 'Live stack'}
        </button>
        {result?.kind === 'stack' && <button onClick={() => void copy(result.text)}>Copy stack</button>}
        {result?.kind === 'stack' && result.dumpPath && (
          <button
            onClick={() =>
              void revealPath(result.dumpPath!).then(
                () => setNotice('Opened the dumps folder.'),
                (e: unknown) => setNotice(messageOf(e)),
              )
            }
          >
            Reveal dump
          </button>
        )}
      </div>
      {!live && (
        <p className="dim">
          {windows
            ? 'Writes a minidump to holdwatch’s data folder (for WinDbg or Visual Studio) and lists the threads. The process is suspended while it is written.'
            : 'What the process is doing now (py-spy for Python when installed, else gdb or eu-stack). The process pauses for the moment it takes.'}
        </p>
      )}
      {running && (
        <p className="progress" role="status">
          {windows ? `Writing a minidump of PID ${live.pid}…` : `Taking the stack of PID ${live.pid}… attaching a debugger can take a few seconds.`}
        </p>
      )}
      {live?.state === 'error' && (
        <p className="error" role="alert">
          {live.error}
        </p>
      )}
      {result?.kind === 'unavailable' && (
        <p className="error" role="alert" data-testid="live-stack-unavailable">
          No live stack{result.tool ? ` (${result.tool})` : ''}: {result.reason}. Next: {result.nextStep}.
        </p>
      )}
      {result?.kind === 'stack' && (
        <>
          <p className="dim">
            {result.tool === 'minidump'
              ? `${result.threads.length} threads`
              : `${result.threads.length} thread${result.threads.length === 1 ? '' : 's'}, by ${result.tool}`}
            {live?.atMs ? ` · taken ${clockTime(live.atMs)}` : ''}
            {result.note ? ` · ${result.note}` : ''}
          </p>
          {result.dumpPath && (
            <p>
              Minidump saved: <span className="mono">{result.dumpPath}</span>
            </p>
          )}
          {/* One element per line: long frames wrap under a hanging indent instead of running off the narrow panel. */}
          <div className="mono live-stack-text" tabIndex={0} role="region" aria-label="Live stack text" data-testid="live-stack-text">
            {threadsText(result.text)
              .trimEnd()
              .split('\n')
              .map((line, i) => (
                <div key={i} className={line.startsWith('thread ') ? 'thread' : undefined}>
                  {line}
                </div>
              ))}
          </div>
        </>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}
