// Escaping for the two output languages. Every string that came from the machine (paths, command
// lines, test names, failure texts) goes through here: a path may hold `|`, backticks, newlines or
// `<script>`, and the report must still read right and stay inert.

/**
 * Shows control characters as visible escapes: a stray ESC or NUL must not reach a terminal or a
 * table. C1 controls too: many terminals take U+009B as CSI. And the bidirectional controls, which
 * make a name read other than it is (`exe.txt` shown for `txt.exe`).
 */
export function visibleControls(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One terminal cell: every control character escaped, a newline as `\n` and a tab as `\t` (as `ls -b`). */
export function terminalCell(text: string): string {
  return visibleControls(text.replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r'));
}

/** One line: newlines become ⏎ so a multi-line value cannot break a table row or a code span. */
export function oneLine(text: string): string {
  return visibleControls(text.replace(/\r\n|\r|\n/g, ' ⏎ ').replace(/\t/g, ' '));
}

/**
 * A Markdown code span that shows `text` verbatim: the fence is one backtick longer than the
 * longest run inside (CommonMark), padded when the text starts or ends with a backtick.
 */
export function mdCode(text: string): string {
  const line = oneLine(text);
  const longest = Math.max(0, ...Array.from(line.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line === '' ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Plain Markdown text with the characters that start markup escaped (for our own prose around values). */
export function mdText(text: string): string {
  // Line-start markers (#, -, +) never occur here: values are always preceded by our own words.
  return oneLine(text).replace(/[\\`*_[\]<>~]/g, (c) => `\\${c}`);
}

/**
 * A GFM table cell. GFM splits rows on `|` before it parses code spans, so a pipe must be `\|`
 * even inside backticks; a newline would end the row.
 */
export function mdCell(markdown: string): string {
  return oneLine(markdown).replace(/\|/g, '\\|');
}

/** A fenced block for multi-line text (failure messages): the fence outgrows any backtick run inside. */
export function mdFence(text: string, info = 'text'): string {
  const body = visibleControls(text.replace(/\r\n|\r/g, '\n'));
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${body}\n${fence}`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values in HTML and inline SVG. */
export function html(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
