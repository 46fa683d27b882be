// node:test runs each test file in a process of its own whose command line is Node's whole option set
// (`--test-coverage-lines=0 … --tls-cipher-list=… --inspect-port=…`, about 2 KB) with the one word a
// reader needs, the test file, last. The one rule the reports and the app show such a process by.

/** The test files of a node:test file process's command line, or null when it is not one. */
export function nodeTestFiles(commandLine: string): string[] | null {
  const words = commandLine.split(/\s+/).filter((w) => w !== '');
  const program = (words[0] ?? '').split(/[\\/]/).pop() ?? '';
  if (!/^node(?:\.exe)?$/i.test(program)) return null;
  const args = words.slice(1);
  // Its runner (`node --test`) has the bare flag; a file process has only the `--test-*` options.
  if (args.includes('--test') || !args.some((w) => w.startsWith('--test-'))) return null;
  const files = args.filter((w) => !w.startsWith('-'));
  return files.length > 0 ? files : null;
}

/** `node test/store.test.mjs (+41 Node options)` for a node:test file process; any other command line as it is. */
export function foldNodeTestOptions(commandLine: string): string {
  const files = nodeTestFiles(commandLine);
  if (!files) return commandLine;
  const words = commandLine.split(/\s+/).filter((w) => w !== '');
  const options = words.slice(1).filter((w) => w.startsWith('-')).length;
  return `${words[0]} ${files.join(' ')} (+${options} Node options)`;
}
