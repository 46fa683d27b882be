// A run started from the installed app, as a user's machine has it: the app's own executable as Node
// (ELECTRON_RUN_AS_NODE) runs the CLI packaged inside it, and that CLI hands the probes from the
// app's folder to the user's python and node. Two leaking suites (examples/pytest-leak and
// examples/node-ebusy); each record must name the holder, the test that opened it and the open line.
// `node tests/smoke/installed-run.mjs --executable <holdwatch.exe> --cli <…\resources\app.asar\bin\holdwatch.js>`
// (.github/workflows/electron.yml); here `--executable "$(command -v node)" --cli bin/holdwatch.js`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function parseArguments(argv) {
  const options = {};
  for (let i = 0; i + 1 < argv.length; i += 2) options[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!options.executable || !options.cli) throw new Error('usage: installed-run.mjs --executable <holdwatch> --cli <bin/holdwatch.js inside it>');
  return options;
}

const python = process.platform === 'win32' ? 'python' : 'python3';
const SUITES = [
  {
    name: 'pytest',
    command: [python, '-m', 'pytest', '-p', 'no:cacheprovider', 'examples/pytest-leak'],
    file: 'session.log',
    test: /test_leak\.py::test_writes_log$/,
    openedIn: /test_leak\.py$/,
  },
  {
    name: 'node:test',
    command: [process.execPath, '--test', 'examples/node-ebusy/ebusy.test.mjs'],
    file: 'cache.lock',
    test: /ebusy\.test\.mjs > writes the lock file$/,
    openedIn: /ebusy\.test\.mjs$/,
  },
];

/** The holder of `suite.file` in the record, with its test and open line; throws what is missing. */
function check(suite, record) {
  const holder = record.holders.find((h) => h.path.endsWith(suite.file));
  if (!holder) throw new Error(`${suite.name}: no holder of ${suite.file} in the record (${record.holders.map((h) => h.path).join(', ') || 'none'})`);
  const { openedDuring, openStack } = holder.attribution;
  if (!suite.test.test(openedDuring ?? '')) throw new Error(`${suite.name}: opened during ${JSON.stringify(openedDuring)}, not ${suite.test}`);
  const line = openStack?.found ? openStack.stack.frames.find((f) => f.user) : undefined;
  if (!line || !suite.openedIn.test(line.file) || !(line.line > 0))
    throw new Error(`${suite.name}: no open line in ${suite.openedIn} (${JSON.stringify(openStack)})`);
  return `${suite.name}: ${holder.processName} PID ${holder.pid} held ${suite.file}, opened in ${openedDuring} at ${line.file}:${line.line}`;
}

const options = parseArguments(process.argv.slice(2));
let failed = false;
for (const suite of SUITES) {
  const dir = mkdtempSync(join(tmpdir(), 'hw-installed-'));
  const json = join(mkdtempSync(join(tmpdir(), 'hw-installed-record-')), 'run.json');
  try {
    const ran = spawnSync(options.executable, [options.cli, 'run', '--watch', dir, '--json', json, '--', ...suite.command], {
      cwd: REPO,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', EXAMPLE_DIR: dir },
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (ran.error) throw ran.error;
    process.stdout.write(`${check(suite, JSON.parse(readFileSync(json, 'utf8')))}\n`);
  } catch (error) {
    failed = true;
    process.stdout.write(`FAIL ${error.message}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}
process.exitCode = failed ? 1 : 0;
