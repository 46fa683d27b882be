// strace's output as `strace -f -ttt -y -o FILE` writes it, one finished call at a time. Calls of two
// threads interleave: a call one thread began (`openat(... <unfinished ...>`) finishes on a later line
// (`<... openat resumed>) = 3</path>`). A call is placed where it finished: that is the ledger's order.
// Pure: text in, calls out.

/** One system call as strace printed it, finished. */
export interface TracedCall {
  /** The thread that made it (strace -f prints thread ids, not process ids). */
  tid: number;
  /** When the line that finished it was written, in ms since the Unix epoch (-ttt). */
  atMs: number;
  name: string;
  /** The argument text, as printed (with -y an fd reads `3</path>`). */
  args: string;
  /** The return value; null for `= ?` (exit_group, a call the process died in). */
  result: number | null;
  /** With -y, the path of a returned fd: `= 3</tmp/x>`. */
  resultPath: string | null;
}

/** A thread's end as strace reports it: `+++ killed by SIGKILL +++` (only for a signal `-e signal=` keeps). */
export interface TracedEnd {
  tid: number;
  atMs: number;
  end: 'exited' | 'killed';
}

export type TracedLine = TracedCall | TracedEnd;

const PREFIX = /^(\d+) +(\d+)\.(\d{6}) (.*)$/;
const UNFINISHED = /^(\w+)\((.*) <unfinished \.\.\.>$/;
const RESUMED = /^<\.\.\. (\w+) resumed>(.*)$/;
const WHOLE = /^(\w+)\((.*)$/;
const END = /^\+\+\+ (exited|killed) /;

/** Where the last `) = ` is (strace pads it to a column: `exit_group(0)   = ?`): `)`'s index and the result's. */
function lastResultMark(rest: string): { close: number; result: number } | null {
  for (let equals = rest.lastIndexOf(' = '); equals !== -1; equals = rest.lastIndexOf(' = ', equals - 1)) {
    let close = equals;
    while (close > 0 && rest[close - 1] === ' ') close--;
    if (close > 0 && rest[close - 1] === ')') return { close: close - 1, result: equals + 3 };
  }
  return null;
}

/** Splits `args) = 3</x>` at the last `) = `. */
function splitResult(rest: string): { args: string; result: number | null; resultPath: string | null } | null {
  const found = lastResultMark(rest);
  if (found === null) return null;
  const args = rest.slice(0, found.close);
  const tail = rest.slice(found.result);
  if (tail.startsWith('?')) return { args, result: null, resultPath: null };
  const m = /^(-?\d+|0x[0-9a-f]+)(?:<(.*)>)?/.exec(tail);
  if (!m) return null;
  return { args, result: Number(m[1]), resultPath: m[2] ?? null };
}

/** Every finished call and thread end, in the order strace wrote them. Lines it cannot read are skipped. */
export function parseStraceLines(text: string): TracedLine[] {
  const out: TracedLine[] = [];
  const pending = new Map<number, { name: string; args: string }>();
  for (const line of text.split('\n')) {
    const m = PREFIX.exec(line);
    if (!m) continue;
    const tid = Number(m[1]);
    const atMs = Number(m[2]) * 1000 + Number(m[3]) / 1000;
    const body = m[4]!;
    // Most lines are whole calls: the rarer shapes are tested for only where their first or last characters say so.
    const end = body.startsWith('+++') ? END.exec(body) : null;
    if (end) {
      out.push({ tid, atMs, end: end[1] as 'exited' | 'killed' });
      continue;
    }
    const unfinished = body.endsWith('...>') ? UNFINISHED.exec(body) : null;
    if (unfinished) {
      pending.set(tid, { name: unfinished[1]!, args: unfinished[2]! });
      continue;
    }
    const resumed = body.startsWith('<...') ? RESUMED.exec(body) : null;
    let name: string;
    let rest: string;
    if (resumed) {
      const began = pending.get(tid);
      pending.delete(tid);
      if (!began || began.name !== resumed[1]) continue;
      name = began.name;
      rest = began.args + resumed[2]!;
    } else {
      const whole = WHOLE.exec(body);
      if (!whole) continue;
      name = whole[1]!;
      rest = whole[2]!;
    }
    const done = splitResult(rest);
    if (done) out.push({ tid, atMs, name, ...done });
  }
  return out;
}

/** The first quoted string argument, unescaped as strace escapes it (`\n`, `\"`, `\\`, octal, `\xNN`). */
export function firstStringArg(args: string): string | null {
  const start = args.indexOf('"');
  if (start === -1) return null;
  let out = '';
  for (let i = start + 1; i < args.length; i++) {
    const ch = args[i]!;
    if (ch === '"') return out;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = args[++i];
    if (next === undefined) break;
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', '"': '"', '\\': '\\' };
    if (next in simple) out += simple[next];
    else if (next === 'x') {
      out += String.fromCharCode(parseInt(args.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(args.slice(i))![0];
      out += String.fromCharCode(parseInt(digits, 8));
      i += digits.length - 1;
    } else out += next;
  }
  return out; // cut by -s: what was printed
}

/** The fd a call's first argument names (`3</tmp/x>`, `3`), read without splitting the others. */
export function firstFd(args: string): number | null {
  const m = /^\s*(-?\d+)(?=<|,|\s*$)/.exec(args);
  return m ? Number(m[1]) : null;
}

/** The path -y prints for the argument fd at `index` (`3</tmp/x>`, `AT_FDCWD</cwd>`), and its number. */
export function fdArg(args: string, index: number): { fd: number | null; path: string | null } {
  const parts = splitArgs(args);
  const arg = parts[index];
  if (arg === undefined) return { fd: null, path: null };
  const m = /^(-?\d+|AT_FDCWD)(?:<(.*)>)?$/.exec(arg.trim());
  if (!m) return { fd: null, path: null };
  return { fd: m[1] === 'AT_FDCWD' ? null : Number(m[1]), path: m[2] ?? null };
}

/** Top-level comma-separated arguments, quotes, brackets and -y's `<...>` kept whole. */
export function splitArgs(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < args.length; i++) {
    const ch = args[i]!;
    if (quoted) {
      current += ch;
      if (ch === '\\') current += args[++i] ?? '';
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if ('[{(<'.includes(ch)) depth++;
    else if (']})>'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim().length > 0) parts.push(current.trim());
  return parts;
}
