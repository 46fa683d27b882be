// Vitest's packages/vitest/src/node/reporters/renderers/indented-logger.ts (MIT, Copyright (c)
// 2021-Present Anthony Fu and Matias Capeletto) at 199776767a10, as it was.
export class IndentedLogger<T = unknown> {
  private currentIndent = '';

  constructor(private baseLog: (text: string) => T) {}

  indent() {
    this.currentIndent += '    ';
  }

  unindent() {
    this.currentIndent = this.currentIndent.substring(0, this.currentIndent.length - 4);
  }

  log(text: string): T {
    return this.baseLog(this.currentIndent + text);
  }
}
