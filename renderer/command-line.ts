// Splits a command typed in one box into argv, as a POSIX shell would for quotes and backslashes
// (no expansion: the command is spawned without a shell).
export function splitCommandLine(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) current += text[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`the command has an unclosed ${quote} quote`);
  if (inWord) args.push(current);
  return args;
}

/** `A=1 B=2 cmd args`: the leading assignments become the command's environment, as in a shell. */
export function parseCommandLine(text: string): { command: string[]; env: Record<string, string> } {
  const words = splitCommandLine(text);
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length; i++) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(words[i]!);
    if (!match) break;
    env[match[1]!] = match[2]!;
  }
  return { command: words.slice(i), env };
}
