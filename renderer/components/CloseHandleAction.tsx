// "Close handle…" for the selected holder: the one handle, not the process (an editor or a language
// server the user cannot end). Confirmed first, saying what may break; the host closes it only while
// it still names the file shown here. Where the host will not (Linux, holdwatch itself, a system
// process), the reason is shown instead of a button.
import { useState } from 'react';
import type { Holder } from '../../contract/holders.js';
import { closeHandle, messageOf } from '../store/intents.js';

interface Props {
  holder: Holder;
  /** The host's reason not to close any handle of this process; null when it offers to; undefined from an older host. */
  refusal: string | null | undefined;
  onDone: (notice: string) => void;
  onClosed: () => void;
}

export function CloseHandleAction({ holder, refusal, onDone, onClosed }: Props) {
  const [confirming, setConfirming] = useState(false);
  if (refusal === undefined || !holder.handle) return null;
  if (refusal !== null)
    return (
      <p className="dim" data-testid="close-handle-refusal">
        holdwatch will not close its handle: {refusal}.
      </p>
    );
  if (holder.kind !== 'file' && holder.kind !== 'dir') return null;
  const handle = holder.handle;
  const close = async () => {
    setConfirming(false);
    try {
      await closeHandle(holder.pid, holder.processStartedAtMs, handle, holder.path);
      onDone(`Closed handle ${handle} of ${holder.processName} (PID ${holder.pid}); ${holder.path} is no longer held by it.`);
      onClosed();
    } catch (error) {
      onDone(messageOf(error));
    }
  };
  return (
    <div className="actions">
      {confirming ? (
        <span className="confirm" role="alertdialog" aria-label="Confirm closing the handle">
          Close handle {handle} of {holder.processName} (PID {holder.pid}) on {holder.path}? The process keeps running, but may crash, or lose or corrupt data,
          the next time it uses that handle: save its work first. holdwatch closes it only if it still names this file.
          <button className="danger" onClick={() => void close()}>
            Close handle
          </button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </span>
      ) : (
        <button className="danger" onClick={() => setConfirming(true)}>
          Close handle…
        </button>
      )}
    </div>
  );
}
