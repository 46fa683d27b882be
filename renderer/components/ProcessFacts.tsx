// The live facts of the selected holder's process, read on selection: where it runs, the run that
// tagged it, its children, its handle count, and what it holds under the watched dirs with access.
import type { HoldingDetail, ProcessDetails } from '../../contract/details.js';
import { clockTime, rightsLabel } from '../format.js';
import { relativePath } from '../store/row-text.js';

export function ProcessFacts({ details }: { details: ProcessDetails }) {
  const { run } = details;
  return (
    <>
      <dl data-testid="process-facts">
        <dt>Directory</dt>
        <dd className="mono" data-testid="cwd">
          {details.cwd ?? <span className="dim">unreadable: {details.cwdUnreadableReason}</span>}
        </dd>
        <dt>Run tag</dt>
        <dd className="mono">{details.environmentTag ?? <span className="dim">none (HOLDWATCH_RUN not set)</span>}</dd>
        {run && (
          <>
            <dt>In run</dt>
            <dd>
              <span className="mono">{run.runId}</span> · spawned during {run.spawnedDuring ?? 'no test'}
              {run.byTagOnly ? ' · tied by its tag only (its parent chain broke)' : ''}
            </dd>
          </>
        )}
        <dt>Handles</dt>
        <dd>{details.handleCount ?? <span className="dim">unreadable</span>}</dd>
        <dt>Children</dt>
        <dd data-testid="children">
          {details.children.length === 0 ? (
            <span className="dim">none</span>
          ) : (
            details.children.map((c, i) => (
              <span key={c.pid} title={`started ${clockTime(c.startedAtMs)}`}>
                {i > 0 ? ', ' : ''}
                <span className="mono">{c.name}</span> <span className="pid">{c.pid}</span>
              </span>
            ))
          )}
        </dd>
      </dl>
      {run && run.ancestry.length > 0 && (
        <p className="dim recorded-chain" title="As the run recorded it when it first saw the process">
          Recorded chain: {run.ancestry.map((a) => `${a.name} ${a.pid}`).join(' ← ')}
        </p>
      )}
      <h3>Holds under the watched dirs (now)</h3>
      {details.holdings.length === 0 ? <p className="dim">Nothing now (or no watch or run in this session).</p> : <HoldingsTable holdings={details.holdings} />}
    </>
  );
}

function HoldingsTable({ holdings }: { holdings: HoldingDetail[] }) {
  // One sentence for the column, not one per row: the reason is the same for every handle of a platform.
  const shareNote =
    holdings.find((h) => h.share === null && h.handle !== null)?.shareUnknownReason ?? holdings.find((h) => h.share === null)?.shareUnknownReason;
  return (
    <>
      <table className="holdings" data-testid="holdings" aria-label="What the process holds under the watched dirs">
        <thead>
          <tr>
            <th>Handle</th>
            <th>Path</th>
            <th>Access</th>
            <th>Share</th>
          </tr>
        </thead>
        <tbody>
          {holdings.map((h) => (
            <tr key={`${h.kind}/${h.handle ?? ''}/${h.path}`}>
              <td className="mono">{h.handle ?? h.kind}</td>
              <td className="mono path" title={h.path}>
                {relativePath(h.path, h.watchedDir)}
                {h.deleted ? ' (deleted)' : ''}
              </td>
              <td title={h.access ? `${h.access.flags} (${h.access.raw})` : 'not an open handle, or unreadable'}>
                {rightsLabel(h.access)}
                {h.locks.length > 0 ? <span className="dim"> · {h.locks.join(', ')}</span> : null}
              </td>
              <td title={h.shareUnknownReason ?? ''}>{h.share ? h.share.join(' | ') || 'none' : <span className="dim">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shareNote && <p className="dim note">Share: {shareNote}</p>}
    </>
  );
}
