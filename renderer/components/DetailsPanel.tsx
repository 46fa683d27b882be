// Details of the selected holder. It leads with the answer — who holds what, opened where, during
// which test — then the stacks, then the process facts and ancestry, and actions: copy, end process
// (confirmed; refused for holdwatch and the system). Text wraps, never cut: a frame keeps its line.
import { Fragment, useEffect, useRef, useState } from 'react';
import type { Holder } from '../../contract/holders.js';
import type { AttributedHolder } from '../../contract/runs.js';
import type { DeletedBy, StackFrame, StackLookup } from '../../contract/stacks.js';
import { holderKey } from '../../contract/identity.js';
import { endProcess, messageOf, revealPath, selectRow } from '../store/intents.js';
import { useStore } from '../store/store.js';
import { clockTime, EVIDENCE_TEXT, VERDICT_LABEL } from '../format.js';
import { commandLineParts, processLabel } from '../process-label.js';
import { CloseHandleAction } from './CloseHandleAction.js';
import { LiveStackSection } from './LiveStackSection.js';
import { ProcessFacts } from './ProcessFacts.js';

export function DetailsPanel() {
  const key = useStore((s) => s.selection.selectedKey);
  const details = useStore((s) => s.selection.details);
  const liveRow = useStore((s) => (key ? s.watch.rows.get(key) : undefined));
  const recorded = useStore((s) =>
    key
      ? findRecorded(
          s.run.record?.holders ?? [],
          s.run.failures.flatMap((f) => f.holders),
          key,
        )
      : undefined,
  );
  const runPhase = useStore((s) => s.run.phase);
  const matchedNow = useStore((s) => (s.selection.stacks?.key === key ? s.selection.stacks : null));
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // Its handle closed or its process exited while selected: read the process again, so nothing
  // offers to act on a process that is gone. Its process exec'd (the row changed its name or command
  // line): read again, so the facts are of the program it runs now.
  const rowState = liveRow?.state ?? (recorded ? 'ended' : undefined);
  const stillHeld = rowState === 'new' || rowState === 'live';
  const program = liveRow ? `${liveRow.holder.processName}\0${liveRow.holder.commandLine}` : null;
  // Only on the change: selecting an already-ended row read the process once already.
  const rowBefore = useRef<{ key: string | null; held: boolean; program: string | null }>({ key: null, held: false, program: null });
  useEffect(() => {
    const before = rowBefore.current;
    rowBefore.current = { key, held: stillHeld, program };
    if (!key || before.key !== key) return;
    if ((before.held && !stillHeld) || (stillHeld && before.program !== null && program !== before.program)) void selectRow(key);
  }, [key, stillHeld, program]);

  if (!key) return <section className="details empty-panel">Select a holder to see its process, ancestry and what to do about it.</section>;
  const holder: Holder | undefined = liveRow?.holder ?? recorded;
  const recordedAttribution = liveRow?.attribution ?? recorded?.attribution ?? null;
  // The record's stacks once the run ended; while it goes, those matched on selecting it.
  const attribution =
    recordedAttribution && !recordedAttribution.openStack && matchedNow
      ? { ...recordedAttribution, openStack: matchedNow.open, spawnStack: matchedNow.spawn }
      : recordedAttribution;
  if (!holder) return <section className="details empty-panel">That holder is gone.</section>;
  const info = details?.data?.process;

  const copy = async () => {
    const text = [
      `${holder.processName} (PID ${holder.pid}) holds ${holder.path} [${holder.kind}${holder.handle ? `, ${holder.handle}` : ''}]`,
      `command line: ${holder.commandLine}`,
      attribution
        ? `verdict: ${VERDICT_LABEL[attribution.verdict]}; opened during: ${openingTest(attribution) ?? '—'}; process started in: ${attribution.spawnedDuring ?? '—'}`
        : '',
    ]
      .filter(Boolean)
      .join('\n');
    try {
      await navigator.clipboard.writeText(text);
      setNotice('Copied to the clipboard.');
    } catch {
      setNotice('The browser refused the clipboard: select the text in this panel and copy it.');
    }
  };
  const end = async () => {
    setConfirming(false);
    try {
      await endProcess(holder.pid, holder.processStartedAtMs);
      setNotice(`Asked ${holder.processName} (PID ${holder.pid}) to end (SIGTERM). Its row fades when its handles close.`);
      void selectRow(key);
    } catch (error) {
      setNotice(messageOf(error));
    }
  };

  // Gone by the OS's word and no longer holding: a row still held belongs to a live process.
  const processGone = details?.state === 'gone' && !stillHeld;
  const stacksWait = runPhase === 'running' || runPhase === 'starting';
  const deletion = deletionOf(attribution);
  return (
    <section className="details" aria-label="Holder details" data-testid="details">
      <h2>
        {processLabel(holder)} <span className="pid">PID {holder.pid}</span>
        {!stillHeld && (
          <span className="badge ended" data-testid="no-longer-held">
            {processGone ? 'process exited' : 'no longer holds it'}
          </span>
        )}
      </h2>
      <Answer holder={holder} attribution={attribution} stillHeld={stillHeld} deletion={deletion} />
      <h3>Stacks</h3>
      <StackView label="Opened by" lookup={attribution?.openStack} />
      <StackView label="Process started by" lookup={attribution?.spawnStack} />
      {deletion && <FrameList label="Deleted by" api={deletion.api} pid={deletion.pid ?? holder.pid} frames={deletion.frames} />}
      {!attribution?.openStack && !attribution?.spawnStack ? (
        <p className="dim" data-testid="stacks-note">
          {stacksWait
            ? 'The stacks arrive when the run ends: the probes’ records are matched to the holders then.'
            : attribution
              ? 'No stack was recorded for it: only Python and Node processes of the run are probed.'
              : 'Stacks are recorded for the processes of a run started under holdwatch (Python and Node).'}
        </p>
      ) : null}
      <h3>Process</h3>
      <dl>
        <dt>Command line</dt>
        <dd className="mono wrap" data-testid="command-line">
          <CommandLine commandLine={holder.commandLine} />
        </dd>
        <dt>How</dt>
        <dd>
          {holder.kind}
          {holder.handle ? ` · ${holder.handle}` : ''}
          {holder.user ? ` · user ${holder.user}` : ''}
        </dd>
        {attribution && (
          <>
            <dt>Started in</dt>
            <dd className="wrap" data-testid="spawned-during">
              {attribution.spawnedDuring ?? <span className="dim">before any test, or not known</span>}
            </dd>
            <dt>Seen</dt>
            <dd>
              <span className="time">{clockTime(Date.parse(attribution.firstSeenAt))}</span> –{' '}
              {/* Still held while the run goes: the record's last sighting lags the table. */}
              {stillHeld && stacksWait ? 'now (still held)' : <span className="time">{clockTime(Date.parse(attribution.lastSeenAt))}</span>}
            </dd>
          </>
        )}
        <dt>Now</dt>
        <dd>
          {details?.state === 'loading' && <span className="progress">Reading process details…</span>}
          {processGone && 'The process has exited.'}
          {details?.state === 'error' && <span className="error">Could not read the process: {details.error}</span>}
          {info && (
            <>
              {info.exe ?? 'image unreadable'} · started <span className="time">{clockTime(info.startedAtMs)}</span>
              {info.user ? ` · ${info.user}` : ''}
            </>
          )}
          {!info && !processGone && details?.state !== 'loading' && details?.state !== 'error' && (
            <span className="dim" data-testid="now-unread">
              {details?.state === 'gone' ? 'The system has no process with this PID now; the row is what was last seen.' : 'Not read yet.'}
            </span>
          )}
        </dd>
      </dl>
      {details?.data && <ProcessFacts details={details.data} />}
      <h3>Ancestry</h3>
      {attribution && attribution.ancestry.length > 0 ? (
        <ol className="ancestry" aria-label="Ancestry recorded when first seen">
          {attribution.ancestry.map((a) => (
            <Fragment key={a.pid}>
              {a.gapBelow && (
                <li className="dim gap" data-testid="ancestry-gap">
                  … exited before holdwatch listed it; the chain resumes at its test&apos;s process
                </li>
              )}
              <li>
                <span className="mono">{a.name}</span> <span className="pid">{a.pid}</span>{' '}
                <span className="mono dim">
                  <CommandLine commandLine={a.commandLine} />
                </span>
              </li>
            </Fragment>
          ))}
        </ol>
      ) : details?.data ? (
        <ol className="ancestry" aria-label="Ancestry now">
          {details.data.ancestry.map((a) => (
            <li key={a.pid}>
              <span className="mono">{a.name}</span> <span className="pid">{a.pid}</span>{' '}
              <span className="mono dim">
                <CommandLine commandLine={a.commandLine} />
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="dim">Not known yet.</p>
      )}
      <div className="actions">
        <button onClick={() => void copy()}>Copy</button>
        <button
          onClick={() =>
            void revealPath(holder.path).then(
              () => setNotice('Opened its folder in the file manager.'),
              (e: unknown) => setNotice(messageOf(e)),
            )
          }
        >
          Reveal
        </button>
        {confirming ? (
          <span className="confirm" role="alertdialog" aria-label="Confirm ending the process">
            End {holder.processName} (PID {holder.pid})? Unsaved work in it is lost.
            <button className="danger" onClick={() => void end()}>
              End process
            </button>
            <button onClick={() => setConfirming(false)}>Cancel</button>
          </span>
        ) : (
          <button
            className="danger"
            disabled={Boolean(details?.data?.endRefusal) || details?.state !== 'ready'}
            title={details?.data?.endRefusal ?? ''}
            onClick={() => setConfirming(true)}
          >
            End process…
          </button>
        )}
      </div>
      {details?.data?.endRefusal && <p className="dim">holdwatch will not end it: {details.data.endRefusal}.</p>}
      {stillHeld && details?.state === 'ready' && details.data && (
        <CloseHandleAction holder={holder} refusal={details.data.closeRefusal} onDone={setNotice} onClosed={() => void selectRow(key)} />
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {!processGone && <LiveStackSection holder={holder} holderKey={key} />}
    </section>
  );
}

/** The one test the details name: the one that opened it, else the scope it was opened in, else the first sighting's, the spawn's. */
function openingTest(attribution: AttributedHolder['attribution']): string | null {
  const scope = attribution.scope && !attribution.openedDuring ? attribution.scope : null;
  return attribution.openedDuring ?? (scope ? scopeText(scope) : null) ?? attribution.firstSeenDuring ?? attribution.spawnedDuring ?? null;
}

/** A command line; a runtime's long run of internal flags (a node:test worker's) folded behind a count. */
function CommandLine({ commandLine }: { commandLine: string }) {
  const { program, folded, rest } = commandLineParts(commandLine);
  if (!commandLine) return <>—</>;
  if (folded.length === 0) return <>{commandLine}</>;
  return (
    <>
      {program}{' '}
      <details className="folded-flags">
        <summary>{folded.length} internal flags</summary>
        {folded.join(' ')}
      </details>{' '}
      <strong>{rest.join(' ')}</strong>
    </>
  );
}

/** An open outside any test, as the details say it: the scope that had to close it. */
function scopeText(scope: NonNullable<AttributedHolder['attribution']['scope']>): string {
  if (scope.kind === 'suite') return `a before-all hook of ${scope.name} (outside its tests)`;
  if (scope.kind === 'file') return `the top of ${scope.name} (import or before-all, outside its tests)`;
  return `${scope.name}, outside any suite`;
}

/** The lead: what it holds, where that was opened, during which test, and the verdict. */
function Answer({
  holder,
  attribution,
  stillHeld,
  deletion,
}: {
  holder: Holder;
  attribution: AttributedHolder['attribution'] | null;
  stillHeld: boolean;
  deletion: DeletedBy | undefined;
}) {
  const deletedAt = deletion ? openingFrame(deletion.frames) : null;
  const open = attribution?.openStack?.found ? attribution.openStack.stack : null;
  const frame = open ? openingFrame(open.frames) : null;
  const scope = attribution?.scope && !attribution.openedDuring ? attribution.scope : null;
  const during = attribution ? openingTest(attribution) : null;
  const evidence = attribution?.openedDuring || scope ? (attribution?.openedDuringBy ?? null) : attribution?.firstSeenDuring ? 'poll' : null;
  return (
    <dl className="answer" data-testid="answer">
      <dt>{stillHeld ? 'Holds' : 'Held'}</dt>
      <dd className="mono wrap" data-testid="held-path">
        {holder.path}
        {holder.deleted ? ' (deleted)' : ''}
      </dd>
      <dt>Opened at</dt>
      <dd className="mono wrap" data-testid="opened-at">
        {frame ? `${frame.file}:${frame.line}${frame.function ? ` in ${frame.function}` : ''}` : <span className="dim">not recorded</span>}
      </dd>
      <dt>During</dt>
      <dd className="wrap" data-testid="opened-during">
        {during ?? <span className="dim">no test (outside the run's tests)</span>}
        {during && evidence ? <span className="dim"> · {EVIDENCE_TEXT[evidence] ?? evidence}</span> : null}
        {/* The first sighting is a poll's fact, not the answer: small, and its test only where it differs. */}
        {attribution && (
          <small className="first-seen" data-testid="first-seen">
            first seen at <span className="time">{clockTime(Date.parse(attribution.firstSeenAt))}</span>
            {attribution.firstSeenDuring && attribution.firstSeenDuring !== during ? `, while ${attribution.firstSeenDuring} ran` : ''}
          </small>
        )}
      </dd>
      {attribution?.closedByFinalizer && (
        <>
          <dt>Closed by</dt>
          <dd className="wrap" data-testid="closed-by-finalizer">
            the garbage collector, not the code, at {clockTime(Date.parse(attribution.closedByFinalizer.at))}
            {attribution.closedByFinalizer.during === null ? ' (between tests)' : ` during ${attribution.closedByFinalizer.during}`}
            <span className="dim"> · leaks where finalisation is deferred (PyPy), and on Windows when the collection comes late</span>
          </dd>
        </>
      )}
      {deletion && (
        <>
          <dt>Deleted by</dt>
          <dd className="wrap" data-testid="deleted-by">
            <span className="mono">{deletion.api}</span>
            {deletedAt ? <span className="mono">{` at ${deletedAt.file}:${deletedAt.line}`}</span> : null}
            {deletion.pid === undefined ? ', in this process, while it was open' : `, in its parent PID ${deletion.pid}, while this process held it`}
            <span className="dim"> · on Windows that removal fails while it is held</span>
          </dd>
        </>
      )}
      {attribution && (
        <>
          <dt>Verdict</dt>
          <dd>
            <span className={`badge ${attribution.verdict}`}>{VERDICT_LABEL[attribution.verdict]}</span>
          </dd>
        </>
      )}
    </dl>
  );
}

/** The frame to name: the first of the user's own code, else the innermost. */
function openingFrame(frames: readonly StackFrame[]): StackFrame | null {
  return frames.find((f) => f.user) ?? frames[0] ?? null;
}

function findRecorded(holders: readonly AttributedHolder[], atFailures: readonly AttributedHolder[], key: string): AttributedHolder | undefined {
  return holders.find((h) => holderKey(h) === key) ?? atFailures.find((h) => holderKey(h) === key);
}

/**
 * The probed call that deleted the held path: its own process's (the stack of its open carries it), else
 * a parent's that met this process's holding.
 */
function deletionOf(attribution: AttributedHolder['attribution'] | null): DeletedBy | undefined {
  return (attribution?.openStack?.found ? attribution.openStack.stack.deletedBy : undefined) ?? attribution?.deletedBy;
}

/** A recorded stack, innermost frame first; the first frame of the user's own code is marked. */
function StackView({ label, lookup }: { label: string; lookup: StackLookup | undefined }) {
  if (!lookup) return null;
  if (!lookup.found)
    return (
      <p className="dim">
        {label}: {lookup.reason}
      </p>
    );
  return <FrameList label={label} api={lookup.stack.api} pid={lookup.stack.pid} frames={lookup.stack.frames} />;
}

function FrameList({ label, api, pid, frames: all }: { label: string; api: string; pid: number; frames: readonly StackFrame[] }) {
  const frames = all.slice(0, 8);
  return (
    <div className="stack">
      <p>
        {label} <span className="mono">{api}</span> (PID {pid})
      </p>
      <ol className="ancestry" aria-label={label}>
        {frames.map((f, i) => (
          <li key={i} className={f.user ? 'user-frame' : 'dim'}>
            <span className="mono">
              {f.user ? '> ' : ''}
              {f.file}:{f.line}
            </span>{' '}
            {f.function ?? ''}
          </li>
        ))}
      </ol>
    </div>
  );
}
