// The CLI: parse, call, print, set the exit code. Bad input is one line on stderr and exit 2.
// Each command's module is imported when that command runs: `scan --json` must not pay for the UI
// server, zod or React-side contracts at start-up (most of a short command's time), and a plain `scan`
// not even for commander (scan-args.ts).
import type * as CommanderModule from 'commander';
import type { Command } from 'commander';
import { EXIT_BAD_INPUT, EXIT_INTERNAL } from '../contract/exit-codes.js';
import { BadInputError, messageOf, UnsupportedPlatformError } from '../core/errors.js';
import { terminalCell } from '../core/report/text.js';
import type { AttachOptions } from './attach-command.js';
import type { RunOptions } from './run-command.js';
import type { RunsOptions } from './runs-command.js';
import type { StackOptions } from './stack-command.js';
import type { ReportFormat } from '../host/run/run-reports.js';
import { holdwatchVersion } from '../host/version.js';
import { plainScanArgs } from './scan-args.js';
import { graceMsOf, MAX_GRACE_MS, plainRunArgs, RUN_OPTIONS } from './run-args.js';
import { SCAN_FLAGS, type ScanOptions } from '../contract/scan-options.js';
import { DEFAULT_GRACE_MS } from '../core/run/outliving-grace.js';

type Commander = typeof CommanderModule;

function parseGraceMs(value: string, { InvalidArgumentError }: Commander): number {
  const ms = graceMsOf(value);
  if (ms === null) throw new InvalidArgumentError(`expected milliseconds between 0 and ${MAX_GRACE_MS}`);
  return ms;
}

function parseIntervalMs(value: string, { InvalidArgumentError }: Commander): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 20 || ms > 3_600_000) throw new InvalidArgumentError('expected milliseconds between 20 and 3600000');
  return ms;
}

function parsePort(value: string, { InvalidArgumentError }: Commander): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port between 0 and 65535 (0: any free port)');
  return port;
}

/** commander's error in one line, its suggestion kept: `unknown command 'scna'; did you mean scan?`. */
function oneErrorLine(text: string): string {
  const [first = '', ...rest] = text.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.find((line) => line.startsWith('(Did you mean')) ?? '');
  return suggestion ? `${first}; did you mean ${suggestion[1]}?` : first;
}

/** `scan`, `run`: what those commands run (a test gives its own, to see what commander parsed). */
export function buildProgram(commander: Commander, setExitCode: (code: number) => void, scan = runScan, run = runRun): Command {
  const { Command } = commander;
  const program = new Command('holdwatch')
    .description('Which processes hold handles under a directory, live, and which test put them there.')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`holdwatch: ${oneErrorLine(text)}\n`) })
    .enablePositionalOptions()
    .version(holdwatchVersion(), '-V, --version', 'print the version');

  const scanCommand = program.command('scan').description('one snapshot of the holders under <dir>').argument('<dir>', 'directory to inspect');
  for (const { flag, help } of SCAN_FLAGS) scanCommand.option(flag, help);
  scanCommand.action(async (dir: string, options: ScanOptions) => setExitCode(await scan(dir, options)));

  addWatchCommand(program, commander, setExitCode);
  addRunCommands(program, commander, setExitCode, run);
  addToolCommands(program, commander, setExitCode);
  return program;
}

/** `watch`: the holders under a dir, live. */
function addWatchCommand(program: Command, commander: Commander, setExitCode: (code: number) => void): void {
  const { Option } = commander;
  program
    .command('watch')
    .description('watch the holders under <dir> live')
    .argument('<dir>', 'directory to watch')
    .option('--json', 'print JSON lines: {type: "appeared"|"gone", at, holder}')
    .addOption(
      new Option('--interval <ms>', 'poll interval in milliseconds while holders change (on Linux, full scans slow down to 2 s while nothing does)')
        .argParser((value) => parseIntervalMs(value, commander))
        .default(500),
    )
    .option('--follow-dir', 'when <dir> is replaced (a symlink or another dir put in its place), watch what it names now instead of stopping')
    .action(async (dir: string, options: { json?: boolean; interval: number; followDir?: boolean }) =>
      setExitCode(
        await (await import('./watch-command.js')).watchCommand(dir, { json: options.json, intervalMs: options.interval, followDir: options.followDir }),
      ),
    );
}

/** The commands of runs: `run`, `attach`, `runs`, `report`. */
function addRunCommands(program: Command, commander: Commander, setExitCode: (code: number) => void, run: typeof runRun): void {
  const { Option } = commander;
  const runCommand = program
    .command('run')
    .description('run a test command, follow its processes and tests, and attribute every holder')
    .argument('<command...>', 'the test command, after --');
  for (const { flag, value, key, help } of RUN_OPTIONS) {
    const spelled = value ? `${flag} ${value}` : flag;
    if (key === 'watch') runCommand.option(spelled, help, (given: string, all: string[]) => [...all, given], [] as string[]);
    else if (key === 'grace') runCommand.addOption(new Option(spelled, help).argParser((given) => parseGraceMs(given, commander)).default(DEFAULT_GRACE_MS));
    else runCommand.option(spelled, help);
  }
  runCommand.passThroughOptions().action(async (command: string[], options: RunOptions) => setExitCode(await run(command, options)));

  program
    .command('attach')
    .description('follow runs started elsewhere: the process --pid and its tree, or else each run a probe announces')
    .option('--pid <pid>', 'the test runner process to follow until it exits')
    .option('--watch <dir>', 'directory to watch (repeatable)', (value: string, all: string[]) => [...all, value], [] as string[])
    .option('--report <file.md>', 'write a Markdown report (without --pid: one per run, the run id before the extension)')
    .option('--json <file.json>', 'write the run record as JSON')
    .option('--html <file.html>', 'write a self-contained HTML report')
    .option('--redact', 'replace your home directory and user name in the reports')
    .action(async (options: AttachOptions) => setExitCode(await (await import('./attach-command.js')).attachCommand(options)));

  program
    .command('runs')
    .description('list the recorded runs, newest first, with their ids for `holdwatch report`')
    .option('--json', 'print one JSON array')
    .option('--prune', 'remove old runs: those beyond the newest --keep, and those older than --max-age days')
    .option('--keep <n>', 'with --prune: how many runs to keep (default 200)')
    .option('--max-age <days>', 'with --prune: the oldest a kept run may be, in days (default 30)')
    .action(async (options: RunsOptions) => setExitCode(await (await import('./runs-command.js')).runsCommand(options)));

  program
    .command('report')
    .description('render a recorded run again')
    .argument('<run>', 'a run id (see the data directory), or the path of a run journal (.jsonl)')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json', 'html']).default('md'))
    .option('--redact', 'replace your home directory and user name')
    .action(async (run: string, options: { format: ReportFormat; redact?: boolean }) =>
      setExitCode(await (await import('./report-command.js')).reportCommand(run, options)),
    );
}

/** One process at a time, and the UI: `stack`, `close`, `ui`, and the hidden scanner worker. */
function addToolCommands(program: Command, commander: Commander, setExitCode: (code: number) => void): void {
  const { Option } = commander;
  program
    .command('stack')
    .description('the live stack of a process (Linux: py-spy, gdb or eu-stack; Windows: a minidump and its threads)')
    .argument('<pid>', 'process id, e.g. a holder from scan or watch')
    .option('--json', 'print the LiveStack result as one JSON object')
    .option('--started-at <ms>', 'only while the process is the one that started then (processStartedAtMs in scan --json): a reused pid is refused')
    .action(async (pid: string, options: StackOptions) => setExitCode(await (await import('./stack-command.js')).stackCommand(pid, options)));

  program
    .command('close')
    .description('close one handle in another process (Windows), after a confirmation: the process may crash when it next uses it')
    .argument('<pid>', 'process id of the holder, as scan or watch shows it')
    .argument('<handle>', 'the handle value, as scan shows it (0x1a4)')
    .requiredOption('--under <dir>', 'the watched dir: the handle is closed only while it names a file under it')
    .option('--yes', 'do not ask (needed without a terminal)')
    .action(async (pid: string, handle: string, options: { under: string; yes?: boolean }) =>
      setExitCode(await (await import('./close-command.js')).closeCommand(pid, handle, options)),
    );

  program
    .command('ui')
    .description('the holdwatch UI in your browser, served on 127.0.0.1 with an access token')
    .addOption(new Option('--port <n>', 'port to listen on (0: any free port)').argParser((value) => parsePort(value, commander)).default(0))
    .option('--no-open', 'print the URL only; do not open a browser')
    .option('--watch <dir>', 'open straight onto watching <dir>')
    .action(async (options: { port: number; open: boolean; watch?: string }) => setExitCode(await (await import('./ui-command.js')).uiCommand(options)));

  // Internal: the scanner worker holdwatch ui starts (elevated on Windows). Hidden from help.
  program
    .command('scan-worker', { hidden: true })
    .option('--pipe <name>', 'the pipe (Windows) or unix socket the host listens on')
    .option('--token <hex>', 'the token that proves this worker to the host')
    .option('--host-pid <pid>', "the host's pid: on Windows the worker writes nothing to a pipe another process serves")
    .action(async (options: { pipe?: string; token?: string; hostPid?: string }) =>
      setExitCode(await (await import('../host/scanner/scan-worker.js')).serveScanWorker(options)),
    );
}

export async function main(argv: string[]): Promise<void> {
  if (argv.length === 0) {
    // commander would print the whole help on stderr: bad input is one line.
    process.stderr.write('holdwatch: no command given (scan, watch, run, attach, runs, report, stack, close, ui); `holdwatch --help` lists them\n');
    process.exitCode = EXIT_BAD_INPUT;
    return;
  }
  try {
    const plain = plainScanArgs(argv);
    if (plain) {
      // Prints without process.stdout (stdout-sync.ts), which it never makes.
      process.exitCode = await runScan(plain.dir, plain);
      return;
    }
    // `holdwatch scan --help | head`: a reader that went away is not an error. Commands that must react
    // themselves (watch stops, run keeps supervising) add their own listener.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' && process.stdout.listenerCount('error') === 1) process.exit(process.exitCode ?? 0);
    });
    const plainRun = plainRunArgs(argv);
    if (plainRun) {
      process.exitCode = await runRun(plainRun.command, plainRun.options);
      return;
    }
    const program = buildProgram(await import('commander'), (code) => (process.exitCode = code));
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    process.exitCode = exitCodeFor(error);
  }
}

async function runScan(dir: string, options: ScanOptions): Promise<number> {
  return (await import('./scan-command.js')).scanCommand(dir, options);
}

async function runRun(command: string[], options: RunOptions): Promise<number> {
  return (await import('./run-command.js')).runCommand(command, options);
}

function exitCodeFor(error: unknown): number {
  // commander's own errors, which it printed already (by their code: commander may not be loaded).
  if (isCommanderError(error)) {
    // Help and version are not errors; everything else commander rejects is bad input (already printed).
    return error.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
  }
  // A message may quote a path the user or the machine named: escaped, it stays one inert line.
  if (error instanceof BadInputError || error instanceof UnsupportedPlatformError) {
    process.stderr.write(`holdwatch: ${terminalCell(error.message)}\n`);
    return EXIT_BAD_INPUT;
  }
  // A real failure: one line, not a stack (HOLDWATCH_DEBUG=1 shows it).
  process.stderr.write(`holdwatch: internal error: ${terminalCell(messageOf(error))}\n`);
  if (process.env.HOLDWATCH_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  return EXIT_INTERNAL;
}

function isCommanderError(error: unknown): error is Error & { exitCode: number } {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('commander.');
}
