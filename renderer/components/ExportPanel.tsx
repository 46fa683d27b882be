// Export the run: Markdown to the clipboard (and shown, to check before pasting), JSON and
// self-contained HTML as downloads; the redact toggle replaces home dir and user name.
import { useState } from 'react';
import type { ReportFormat } from '../../contract/service.js';
import { exportReport, messageOf, setRedact } from '../store/intents.js';
import { useStore } from '../store/store.js';

export function ExportPanel() {
  const runId = useStore((s) => s.run.runId);
  const redact = useStore((s) => s.settings.redact);
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const run = async (format: ReportFormat) => {
    setBusy(format);
    setNotice(null);
    try {
      const report = await exportReport(format);
      if (format === 'md') {
        setPreview(report.text);
        await navigator.clipboard.writeText(report.text).then(
          () => setNotice('Markdown copied to the clipboard.'),
          () => setNotice('The browser refused the clipboard: copy the Markdown from the preview in the Export panel.'),
        );
      } else {
        const url = URL.createObjectURL(new Blob([report.text], { type: report.mimeType }));
        const a = document.createElement('a');
        a.href = url;
        a.download = report.fileName;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        setNotice(`Saved ${report.fileName}.`);
      }
    } catch (error) {
      setNotice(`Export failed: ${messageOf(error)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="export" aria-label="Export">
      <h2>Export the run</h2>
      {!runId ? (
        <p className="dim">Reports describe a run: start a test command to export one.</p>
      ) : (
        <>
          <label className="toggle">
            <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /> Redact home directory and user name
          </label>
          <div className="actions">
            <button onClick={() => void run('md')} disabled={busy !== null}>
              {busy === 'md' ? 'Rendering…' : 'Copy Markdown'}
            </button>
            <button onClick={() => void run('json')} disabled={busy !== null}>
              {busy === 'json' ? 'Rendering…' : 'Save JSON'}
            </button>
            <button onClick={() => void run('html')} disabled={busy !== null}>
              {busy === 'html' ? 'Rendering…' : 'Save HTML'}
            </button>
          </div>
          {/* Pinned to the window: the panel is often below the fold, its feedback must not be. */}
          {notice && (
            <p className="notice export-notice" role="status" data-testid="export-notice">
              {notice}
              <button className="dismiss" aria-label="Dismiss" onClick={() => setNotice(null)}>
                ×
              </button>
            </p>
          )}
          {preview && <textarea className="preview mono" readOnly value={preview} aria-label="Markdown report" data-testid="markdown-preview" />}
        </>
      )}
    </section>
  );
}
