import { describe, expect, it } from 'vitest';
import { quotePosix, quotePowerShell, reproduceCommand } from './shell-quote.js';
import { html, mdCell, mdCode, mdFence } from './text.js';

describe('Markdown escaping', () => {
  it('fences a code span one backtick longer than any run inside', () => {
    expect(mdCode('plain')).toBe('`plain`');
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('x``y```z')).toBe('````x``y```z````');
    expect(mdCode('`edge`')).toBe('`` `edge` ``');
  });

  it('keeps a table row on one line and its pipes inside the cell', () => {
    const cell = mdCell(mdCode('a|b\nc'));
    expect(cell).toBe('`a\\|b ⏎ c`');
    expect(cell).not.toContain('\n');
    expect(cell.replace(/\\\|/g, '')).not.toContain('|');
  });

  it('fences multi-line text with a fence longer than any backtick run inside', () => {
    const block = mdFence('line 1\n```\nline 3');
    expect(block.startsWith('````text\n')).toBe(true);
    expect(block.endsWith('\n````')).toBe(true);
  });

  it('shows control characters instead of passing them through', () => {
    expect(mdCode('a\u001b[31mb')).toBe('`a\\x1b[31mb`');
  });
});

describe('bidirectional controls', () => {
  it('are shown, not obeyed, in Markdown and HTML: a name reads as it is', () => {
    const name = 'invoice\u202efdp.exe';
    expect(mdCode(name)).toBe('`invoice\\u202efdp.exe`');
    expect(html(`a\u2066b\u200fc`)).toBe('a\\u2066b\\u200fc');
  });
});

describe('HTML escaping', () => {
  it('makes markup and attribute breakers inert', () => {
    expect(html(`<script>alert("x")</script>&'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  });
});

describe('shell quoting', () => {
  it('leaves safe words bare and single-quotes the rest for sh', () => {
    expect(quotePosix('tests/test_a.py')).toBe('tests/test_a.py');
    expect(quotePosix('a b')).toBe(`'a b'`);
    expect(quotePosix(`it's`)).toBe(`'it'\\''s'`);
    expect(quotePosix('$HOME')).toBe(`'$HOME'`);
    expect(quotePosix('')).toBe(`''`);
    expect(quotePosix('~/my src')).toBe(`~/'my src'`);
    expect(quotePosix('~user')).toBe(`'~user'`);
  });

  it('doubles quotes for PowerShell and protects -- and a leading @', () => {
    expect(quotePowerShell('C:\\Users\\a\\x.py')).toBe('C:\\Users\\a\\x.py');
    expect(quotePowerShell(`it's here`)).toBe(`'it''s here'`);
    expect(quotePowerShell('--')).toBe(`'--'`);
    expect(quotePowerShell('@args')).toBe(`'@args'`);
    expect(quotePowerShell('$env:TEMP')).toBe(`'$env:TEMP'`);
  });

  it('builds the reproduce line with cwd, watched dirs and the command', () => {
    expect(reproduceCommand('linux', '/src/my app', ['pytest', '-k', 'a or b'], ['/tmp/w']).line).toBe(
      `cd '/src/my app' && holdwatch run --watch /tmp/w -- pytest -k 'a or b'`,
    );
    const win = reproduceCommand('win32', 'C:\\src', ['python', '-m', 'pytest'], ['C:\\T 1']);
    expect(win).toEqual({ shell: 'powershell', line: `Set-Location C:\\src; holdwatch run --watch 'C:\\T 1' '--' python -m pytest` });
  });
});
