// A plain text table: columns padded to their widest cell, numbers right-aligned. Plain on purpose:
// the bench output is pasted into issues and reports verbatim.

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

export function formatTextTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    columns
      .map((c, i) => {
        const cell = cells[i] ?? '';
        return c.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join('\n');
}

/**
 * The same table in GitHub-flavoured Markdown, for CI step summaries (`>> $GITHUB_STEP_SUMMARY`):
 * right-aligned columns get `---:`, and a `|` inside a cell is escaped so it cannot split the row.
 */
export function formatMarkdownTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${columns.map((_, i) => (cells[i] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`;
  const rule = `|${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join('|')}|`;
  return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join('\n');
}
