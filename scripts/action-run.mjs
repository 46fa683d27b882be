// The GitHub Action's run step (action.yml): runs the user's test command under `holdwatch run` from
// this checkout, keeps the command's exit code, and says where the reports are for the upload step.
// Inputs arrive as INPUT_* variables (action.yml maps them): an input pasted into the script text
// would be a shell injection.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { constants, homedir, tmpdir } from 'node:os';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

// The CLI contract's codes (contract/exit-codes.ts): bad input, and a failure of our own.
const EXIT_BAD_INPUT = 2;
const EXIT_INTERNAL = 70;
const CLI = fileURLToPath(new URL('../bin/holdwatch.js', import.meta.url));

// On Windows, `bash` on PATH may be System32's WSL launcher; `shell: bash` steps mean Git Bash.
const GIT_BASH = join(process.env.ProgramFiles || 'C:\\Program Files', 'Git', 'bin', 'bash.exe');
const BASH = process.platform === 'win32' && existsSync(GIT_BASH) ? GIT_BASH : 'bash';

// How each `shell` input runs the `run` input; bash and pwsh as GitHub runs a `run:` step with them.
const SHELLS = {
  bash: (command) => [BASH, '--noprofile', '--norc', '-eo', 'pipefail', '-c', command],
  sh: (command) => ['sh', '-e', '-c', command],
  pwsh: (command) => ['pwsh', '-NoLogo', '-NoProfile', '-NonInteractive', '-Command', command],
  cmd: (command) => ['cmd', '/D', '/S', '/C', command],
};

function fail(message, exitCode = EXIT_BAD_INPUT) {
  process.stderr.write(`holdwatch action: ${message}\n`);
  process.exit(exitCode);
}

const env = process.env;
const command = (env.INPUT_RUN ?? '').trim();
if (!command) fail("the 'run' input is empty: give the test command to run");
const shell = SHELLS[env.INPUT_SHELL || 'bash'];
if (!shell) fail(`the 'shell' input ${JSON.stringify(env.INPUT_SHELL)} is not one of ${Object.keys(SHELLS).join(', ')}`);
// By default the temp dirs tests write to: the OS one (pytest's tmp_path, mkdtemp, t.TempDir():
// /tmp on Linux, %TEMP% = C:\Users\RUNNER~1\AppData\Local\Temp on Windows) and the runner's own.
const defaultWatch = [...new Set([tmpdir(), env.RUNNER_TEMP].filter(Boolean))].join('\n');
// One directory a line, so a job can watch its workspace and its temp dir at once.
const watch = (env.INPUT_WATCH || defaultWatch)
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);

const isInside = (path, dir) => {
  const rest = relative(dir, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
};

// holdwatch refuses to write inside a watched dir, and by default both temp dirs are watched: the
// reports go beside RUNNER_TEMP (the runner's work folder), else the home folder, else the OS temp dir.
function reportParent() {
  const candidates = [env.RUNNER_TEMP && dirname(env.RUNNER_TEMP), homedir(), tmpdir()].filter(Boolean);
  return candidates.find((dir) => !watch.some((watched) => isInside(dir, watched))) ?? tmpdir();
}

const reportDir = env.INPUT_REPORT_DIR || mkdtempSync(join(reportParent(), 'holdwatch-report-'));
const reportMd = join(reportDir, 'holdwatch-report.md');
const reportHtml = join(reportDir, 'holdwatch-report.html');

function setOutput(name, value) {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`);
}
// Said before the run, so the upload step finds the folder even when the run is cancelled midway.
setOutput('report-dir', reportDir);
// Artifact names are unique in a workflow run, and a matrix repeats the job's name: add a random suffix.
setOutput('artifact-name', env.INPUT_REPORT_NAME || `holdwatch-report-${env.GITHUB_JOB || 'job'}-${randomBytes(3).toString('hex')}`);

// holdwatch appends its own step summary (the headline and the worst holders) to GITHUB_STEP_SUMMARY;
// the full Markdown and HTML reports go to the artifact.
const args = [CLI, 'run', ...watch.flatMap((dir) => ['--watch', dir]), '--report', reportMd, '--html', reportHtml];
if (env.INPUT_KILL_LEFTOVERS === 'true') args.push('--kill-leftovers');
const child = spawn(process.execPath, [...args, '--', ...shell(command)], { stdio: 'inherit' });

// The runner cancels a job with SIGINT, then SIGTERM: holdwatch forwards them to the command and
// still writes its reports, so pass them on rather than die first.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

child.on('error', (error) => fail(`could not start holdwatch: ${error.message}`, EXIT_INTERNAL));
child.on('close', (code, signal) => {
  // holdwatch exits with the command's code (128+n for a signal); a holdwatch killed itself says so the same way.
  const exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  setOutput('exit-code', exitCode);
  process.exitCode = exitCode;
});
