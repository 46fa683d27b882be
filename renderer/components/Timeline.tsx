// The run's timeline: tests as bars (setup/call/teardown where the runner says), holder lifetimes as
// lanes, failure markers; clicking a marker freezes the table at the snapshot taken then, clicking a
// holder's lane selects it. Drawn at the panel's own width in CSS pixels (a fixed viewBox scaled text
// to ~9 px at 1280 and letterboxed at 1920); while the run goes, the axis runs on to now.
import { useEffect, useRef, useState } from 'react';
import type { FailureRecord, RunRecord, TestRecord } from '../../contract/runs.js';
import { heldSinceMs } from '../../contract/held-since.js';
import { holderKey } from '../../contract/identity.js';
import { foldRecordHolders } from '../../contract/transient.js';
import type { AttributedHolder } from '../../contract/runs.js';
import { freezeFailure, selectRow } from '../store/intents.js';
import { useStore } from '../store/store.js';
import { clockTime, VERDICT_LABEL } from '../format.js';
import { elideMiddle } from '../store/row-text.js';

const LANE = 20;
/** Roughly the width of one label character at the lane font (12 px). */
const CHAR_PX = 7;
const MAX_TESTS = 12;
const MAX_HOLDERS = 16;

export function Timeline() {
  const record = useStore((s) => s.run.record);
  const failures = useStore((s) => s.run.failures);
  const frozen = useStore((s) => s.selection.frozenFailure);
  const selectedKey = useStore((s) => s.selection.selectedKey);
  const running = useStore((s) => s.run.phase === 'running');
  const liveRows = useStore((s) => s.watch.rows);
  const [WIDTH, setWidth] = useState(1000);
  const [now, setNow] = useState(() => Date.now());
  const panel = useRef<HTMLElement>(null);
  const drawn = record !== null; // the panel element exists only then
  useEffect(() => {
    const element = panel.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(480, element.clientWidth - 2)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [drawn]);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [running]);
  if (!record) return <section className="timeline empty-timeline">The timeline appears with the run's first events.</section>;

  // A handle still held while the run goes reaches to now, not to the last record's sighting.
  const heldUntil = (key: string, lastSeenAt: string) => {
    const row = liveRows.get(key);
    return running && row && row.state !== 'gone' ? now : Date.parse(lastSeenAt);
  };
  const LABEL = Math.min(360, Math.max(200, Math.round(WIDTH * 0.22)));
  const labelChars = Math.floor((LABEL - 8) / CHAR_PX);
  const t0 = Date.parse(record.startedAt);
  const t1 = Math.max(t0 + 1000, lastMoment(record, failures), running ? now : 0);
  const x = (iso: string | number) => LABEL + (((typeof iso === 'number' ? iso : Date.parse(iso)) - t0) / (t1 - t0)) * (WIDTH - LABEL - 10);
  const tests = record.tests.slice(0, MAX_TESTS);
  // Short-lived files fold into one lane per process and folder, their moments as ticks on it.
  const { kept, groups } = foldRecordHolders({ failures, endedAt: record.endedAt }, record.holders);
  const lanes: Lane[] = [
    ...kept.map((h): Lane => ({ key: holderKey(h), label: `${h.processName}[${h.pid}] ${h.path.split(/[\\/]/).pop()}`, holders: [h], title: h.path })),
    ...groups.map((g): Lane => ({
      key: holderKey(g.members[0]!),
      label: `${g.processName}[${g.pid}] ${g.files} short-lived`,
      holders: g.members,
      title: `${g.files} files in ${g.dir}, each closed again within its test`,
    })),
  ]
    // The run's own lanes first: in a shared temp dir, other programs' holders must not push them out of the drawing.
    .sort((a, b) => outsider(a) - outsider(b) || heldSinceMs(a.holders[0]!.attribution) - heldSinceMs(b.holders[0]!.attribution))
    .slice(0, MAX_HOLDERS);
  // Failures close in time (a runner's teardown event and the rm line that follows it) get their
  // markers stacked, so each stays clickable.
  const stacks = failures.map((f, i) => failures.slice(0, i).filter((g) => Math.abs(x(g.at) - x(f.at)) < 16).length);
  const top = 22 + Math.max(0, ...stacks) * 16;
  // No tests (a plain command, or a runner without a probe): one lane that says so.
  const holdersTop = top + Math.max(1, tests.length) * LANE + 14;
  const height = holdersTop + Math.max(1, lanes.length) * LANE + 24;

  return (
    <section className="timeline" aria-label="Run timeline" ref={panel}>
      {/* The axis in words, above the drawing: failure markers stand along the drawing's top edge. */}
      <p className="axis-line" data-testid="timeline-axis">
        <span className="time">{clockTime(t0)}</span> → <span className="time">{clockTime(t1)}</span> ({((t1 - t0) / 1000).toFixed(1)} s)
        {running ? ' · running' : ''}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width={WIDTH} height={height} role="img" aria-label="Tests, holder lifetimes and failures over time">
        <text x={4} y={14} className="lane-title">
          Tests
        </text>
        {tests.length === 0 && (
          <text x={LABEL} y={top + 14} className="axis" data-testid="no-tests">
            No test events: the command reported none.
          </text>
        )}
        {tests.map((t, i) => (
          <TestBar key={t.name} test={t} y={top + i * LANE} x={x} t1={t1} labelChars={labelChars} />
        ))}
        {record.tests.length > MAX_TESTS && (
          <text x={4} y={holdersTop - 4} className="axis">
            +{record.tests.length - MAX_TESTS} more tests
          </text>
        )}
        <text x={4} y={holdersTop + 10} className="lane-title" dy={-12}>
          Holders
        </text>
        {lanes.length === 0 && (
          <text x={LABEL} y={holdersTop + 12} className="axis">
            No holder seen yet.
          </text>
        )}
        {lanes.map((lane, i) => {
          const y = holdersTop + i * LANE;
          const { key, label } = lane;
          return (
            <g
              key={key}
              className={`holder-lane${key === selectedKey ? ' selected' : ''}`}
              role="button"
              tabIndex={0}
              aria-label={`Select ${label}`}
              data-testid="holder-lane"
              data-pid={lane.holders[0]!.pid}
              onClick={() => void selectRow(key)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && void selectRow(key)}
            >
              <rect className="lane-hit" x={0} y={y} width={WIDTH} height={LANE} />
              <text x={4} y={y + 14} className="lane-label">
                {elideMiddle(label, labelChars)}
                <title>{lane.title}</title>
              </text>
              {lane.holders.map((h) => (
                <rect
                  key={holderKey(h)}
                  x={x(heldSinceMs(h.attribution))}
                  y={y + 3}
                  width={Math.max(3, x(heldUntil(holderKey(h), h.attribution.lastSeenAt)) - x(heldSinceMs(h.attribution)))}
                  height={LANE - 6}
                  rx={3}
                  className={`lifetime ${h.attribution.verdict}`}
                >
                  <title>{`${label}: ${VERDICT_LABEL[h.attribution.verdict]}, ${clockTime(heldSinceMs(h.attribution))} – ${clockTime(Date.parse(h.attribution.lastSeenAt))}`}</title>
                </rect>
              ))}
            </g>
          );
        })}
        {kept.length + groups.length > MAX_HOLDERS && (
          <text x={4} y={height - 6} className="axis">
            +{kept.length + groups.length - MAX_HOLDERS} more lanes (see the table)
          </text>
        )}
        {failures.map((f, i) => (
          <FailureMarker key={`${f.at}-${i}`} failure={f} index={i} x={x(f.at)} stack={stacks[i] ?? 0} height={height} frozen={frozen === i} />
        ))}
      </svg>
      {frozen !== null && failures[frozen] && (
        <div className="frozen-banner" role="status">
          <strong>Frozen at {clockTime(Date.parse(failures[frozen].at))}</strong> — {failures[frozen].text.slice(0, 160)}
          <button onClick={() => freezeFailure(null)}>Back to live</button>
        </div>
      )}
    </section>
  );
}

/** 1 for a lane of a process outside the run, else 0: sorts the run's own lanes first. */
const outsider = (lane: Lane): number => (lane.holders[0]!.attribution.verdict === 'outside-run' ? 1 : 0);

/** One row of the holders part: a holder, or a folded group of short-lived files. */
interface Lane {
  key: string;
  label: string;
  holders: AttributedHolder[];
  title: string;
}

function TestBar({ test, y, x, t1, labelChars }: { test: TestRecord; y: number; x: (t: string | number) => number; t1: number; labelChars: number }) {
  const end = test.endedAt ?? t1;
  const phases = test.phaseTimes ? (Object.entries(test.phaseTimes) as [string, { startedAt: string; endedAt: string }][]) : [];
  return (
    <g>
      <text x={4} y={y + 14} className="lane-label">
        {elideMiddle(test.name, labelChars)}
        <title>{test.name}</title>
      </text>
      <rect
        x={x(test.startedAt)}
        y={y + 3}
        width={Math.max(3, x(end) - x(test.startedAt))}
        height={LANE - 6}
        rx={3}
        className={`test ${test.outcome ?? 'running'}`}
      >
        <title>{`${test.name}: ${test.outcome ?? 'running'}${test.phase ? ` in ${test.phase}` : ''}`}</title>
      </rect>
      {phases.map(([phase, t]) => (
        <rect
          key={phase}
          x={x(t.startedAt)}
          y={y + 3}
          width={Math.max(2, x(t.endedAt) - x(t.startedAt))}
          height={LANE - 6}
          className={`phase ${phase} ${test.phases?.[phase as 'setup'] ?? ''}`}
        >
          <title>{`${phase}: ${test.phases?.[phase as 'setup'] ?? ''}`}</title>
        </rect>
      ))}
    </g>
  );
}

function FailureMarker({
  failure,
  index,
  x,
  stack,
  height,
  frozen,
}: {
  failure: FailureRecord;
  index: number;
  x: number;
  stack: number;
  height: number;
  frozen: boolean;
}) {
  const y = stack * 16;
  const label = `Teardown failure at ${clockTime(Date.parse(failure.at))}${failure.test ? ` in ${failure.test}` : ''}: ${failure.text}`;
  return (
    <g
      className={`failure-marker${frozen ? ' frozen' : ''}`}
      role="button"
      tabIndex={0}
      aria-label={label}
      data-testid="failure-marker"
      onClick={() => freezeFailure(frozen ? null : index)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && freezeFailure(frozen ? null : index)}
    >
      {/* The line is too thin to hit: the targets are a box around the triangle (one per stacked
          marker) and a band along the line (where markers overlap, the later one is on top). */}
      <rect className="hit" x={x - 9} y={y} width={18} height={18} />
      <rect className="hit" x={x - 5} y={y + 18} width={10} height={Math.max(0, height - y - 18)} />
      <line x1={x} x2={x} y1={y + 18} y2={height - 4} />
      <path d={`M ${x - 7} ${y + 4} L ${x + 7} ${y + 4} L ${x} ${y + 18} Z`} />
      <title>{label}</title>
    </g>
  );
}

function lastMoment(record: RunRecord, failures: readonly FailureRecord[]): number {
  const times = [
    record.endedAt,
    ...record.tests.map((t) => t.endedAt ?? t.startedAt),
    ...record.holders.map((h) => h.attribution.lastSeenAt),
    ...failures.map((f) => f.at),
  ];
  return Math.max(...times.filter((t): t is string => Boolean(t)).map((t) => Date.parse(t)));
}
