// What `watch` and `run` load before they scan: zod (115-185 ms to import here) only where something
// is read back from another process, never on the way to the first scan. A resolve hook logs every
// module the CLI loads; the test command appends its own line to the same log while the run scans.
// The CLI runs from its bundle (dist/cli-bundle/): a chunk holds the modules its region comments name
// ("// node_modules/zod/v4/core/util.js", "// dist/core/poll-pace.js"), so a loaded chunk is read for them.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, startCli } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

const REGISTER = join(REPO_ROOT, 'tests/fixtures/module-log/register.mjs');
/** Whether the loaded module is `source` (a path under the repo) or a bundle chunk that holds it. */
function holds(url: string, source: string): boolean {
  if (url.endsWith('/' + source)) return true;
  if (!url.startsWith('file:') || !url.includes('/dist/cli-bundle/')) return false;
  const chunk = readFileSync(fileURLToPath(url), 'utf8');
  return chunk.startsWith(`// ${source}\n`) || chunk.includes(`\n// ${source}\n`);
}
const isZod = (url: string) => url.includes('/node_modules/zod/') || holds(url, 'node_modules/zod/v4/core/util.js');

let scratch: string;
let log: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-imports-'));
  log = join(scratch, 'modules.log');
  writeFileSync(log, '');
});
afterEach(async () => {
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

const loaded = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
const env = () => ({ NODE_OPTIONS: `--import ${REGISTER}`, HOLDWATCH_MODULE_LOG: log, HOLDWATCH_DATA_DIR: join(scratch, 'data') });

describe('start-up imports', () => {
  it('the chunk test finds zod in the bundle (so its absence below means something)', () => {
    const bundle = join(REPO_ROOT, 'dist/cli-bundle');
    expect(readdirSync(bundle).filter((f) => f.endsWith('.mjs') && isZod(pathToFileURL(join(bundle, f)).href))).toHaveLength(1);
  });

  it("scan in its plain form loads neither zod nor commander; anything else is commander's", async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const isCommander = (url: string) => url.includes('/node_modules/commander/') || holds(url, 'node_modules/commander/lib/command.js');
    const plain = await runCli(['scan', watched, '--json'], { env: env() });
    expect(plain.code).toBe(0);
    expect(loaded().some((url) => holds(url, 'dist/cli/scan-command.js'))).toBe(true); // the log works
    expect(loaded().filter((url) => isZod(url) || isCommander(url))).toEqual([]);
    writeFileSync(log, '');
    const typo = await runCli(['scan', watched, '--jsn'], { env: env() });
    expect([typo.code, typo.stderr]).toEqual([2, "holdwatch: unknown option '--jsn'; did you mean --json?\n"]);
    expect(loaded().some(isCommander)).toBe(true);
  });

  it("scan in its plain form loads no walk thread, fs/promises, perf_hooks, streams or koffi's package loader", async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const builtins = join(REPO_ROOT, 'tests/fixtures/module-log/builtins.mjs');
    const scan = await runCli(['scan', watched, '--json'], { env: { ...env(), NODE_OPTIONS: `--import ${builtins}` } });
    expect(scan.code).toBe(0);
    const modules = loaded();
    expect(modules).toContain('NativeModule fs'); // the log works
    // An ESM import of node:fs copies every export, and so loads fs/promises and what it needs.
    const unwanted = ['NativeModule internal/fs/promises', 'NativeModule perf_hooks'];
    // No walk thread; and koffi's addon opened by its file, without its package's loader, which loads
    // worker_threads and streams, nor CommonJS's, which resolves it through two packages (native/koffi-loader.ts).
    unwanted.push('NativeModule worker_threads', 'koffi package loader', 'koffi addon through require');
    // Nor streams: its output goes to fd 1 without process.stdout (cli/stdout-sync.ts).
    unwanted.push('NativeModule stream', 'NativeModule net');
    expect(modules.filter((m) => unwanted.includes(m))).toEqual([]);
    expect(modules).toContain('koffi addon');
  });

  it('watch scans, reports a holder and polls on without loading zod', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    await pythonHoldingFile(join(watched, 'held.txt'));
    const watch = startCli(['watch', watched, '--json', '--interval', '100'], { env: env() });
    try {
      await watch.waitForLine((line) => line.includes('"appeared"'));
      await new Promise((resolve) => setTimeout(resolve, 500)); // a few polls more
    } finally {
      watch.child.kill('SIGTERM');
      await new Promise((resolve) => watch.child.once('exit', resolve));
    }
    const modules = loaded();
    expect(modules.some((url) => holds(url, 'dist/core/poll-pace.js'))).toBe(true); // the log works: the watcher's pace
    expect(modules.filter(isZod)).toEqual([]);
  });

  it('run supervises its command, scanning, with zod loaded only after the command ended (reading the probe logs)', async () => {
    const marker = 'the command ran for 1 s';
    const script = `sleep 1; echo '${marker}' >> "$HOLDWATCH_MODULE_LOG"`;
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const result = await runCli(['run', '--watch', watched, '--', 'sh', '-c', script], { env: env() });
    expect(result.code).toBe(0);
    const modules = loaded();
    const commandDone = modules.indexOf(marker);
    expect(commandDone).toBeGreaterThan(0);
    expect(modules.slice(0, commandDone).some((url) => holds(url, 'dist/core/run/supervisor.js'))).toBe(true);
    expect(modules.slice(0, commandDone).filter(isZod)).toEqual([]);
    // The TAP parser (tap-parser, yaml) only when the command's output says TAP: this one printed nothing.
    expect(modules.filter((url) => holds(url, 'node_modules/tap-parser/dist/esm/index.js'))).toEqual([]);
  });
});
