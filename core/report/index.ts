// Run reports: Markdown for issues, JSON for scripts, one self-contained HTML file, and the
// GitHub Actions step summary. All pure: the record and the facts to redact come in as arguments.
export { renderMarkdown } from './markdown.js';
export { jsonChunks, renderJson } from './json.js';
export type { ReportOptions } from './options.js';
export { renderStepSummary } from './step-summary.js';
export { renderHtml } from './html.js';
