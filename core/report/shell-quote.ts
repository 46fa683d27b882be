// The command to reproduce a run, quoted so it pastes into a shell unchanged. Hand-written rather
// than a dependency: the two rules are a few lines and core stays dependency-free.
import type { PlatformName } from '../../contract/holders.js';

/** POSIX sh: bare when only safe characters, else single quotes with `'` written as `'\''`. */
export function quotePosix(arg: string): string {
  // A redacted home (`~/src`) keeps its tilde outside the quotes, where the shell expands it.
  if (arg === '~') return arg;
  if (arg.startsWith('~/')) return arg.length === 2 ? arg : `~/${quotePosix(arg.slice(2))}`;
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * PowerShell: single-quoted strings are literal; `'` is doubled (so are its typographic forms).
 * A bare `--` is eaten by PowerShell before a native command sees it, and a leading `@` splats.
 */
export function quotePowerShell(arg: string): string {
  if (arg !== '' && arg !== '--' && /^[A-Za-z0-9_@%+=:,./\\~-]+$/.test(arg) && !arg.startsWith('@')) return arg;
  return `'${arg.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

export interface ShellCommand {
  /** Fenced-block info string: `sh` or `powershell`. */
  shell: 'sh' | 'powershell';
  line: string;
}

/** `cd <cwd> && <command>` (sh) or `Set-Location <cwd>; <command>` (PowerShell on Windows runs). */
export function reproduceCommand(platform: PlatformName, cwd: string, argv: readonly string[], watched: readonly string[]): ShellCommand {
  const win = platform === 'win32';
  const q = win ? quotePowerShell : quotePosix;
  const holdwatch = ['holdwatch', 'run', ...watched.flatMap((dir) => ['--watch', q(dir)]), q('--')].join(' ');
  const command = argv.map(q).join(' ');
  return win
    ? { shell: 'powershell', line: `Set-Location ${q(cwd)}; ${holdwatch} ${command}` }
    : { shell: 'sh', line: `cd ${q(cwd)} && ${holdwatch} ${command}` };
}
