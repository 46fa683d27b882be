// The answer a run ended with, first and in words: the report's own first line (file, process, test,
// open line, what Windows would say), the values set as code so they read as what to search for.
import { useStore } from '../store/store.js';

const QUIET_VERDICTS = new Set(['in-run', 'outside-run']);

export function AnswerBanner() {
  const headline = useStore((s) => s.run.headline);
  const record = useStore((s) => s.run.record);
  if (!headline) return null;
  const trouble = Boolean(record && (record.failures.length > 0 || record.holders.some((h) => !QUIET_VERDICTS.has(h.attribution.verdict))));
  return (
    <p className={`answer-banner ${trouble ? 'trouble' : 'clean'}`} role="status" data-testid="answer-banner">
      {headline.map((piece, i) =>
        typeof piece === 'string' ? (
          piece
        ) : (
          <code key={i} className="mono">
            {piece.code}
          </code>
        ),
      )}
    </p>
  );
}
