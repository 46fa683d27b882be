// The win32 backend for real: Windows node.exe under Wine holds files, directories, a cwd and a
// module under a scratch dir; `holdwatch scan --json` (the same bin/holdwatch.js, run by node.exe)
// must find each with its kind and pid, and rmdir must fail while they hold it. One file, one
// prefix: the prefix is booted once per run. Under CI (CI set) a missing Wine fails the suite.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot, WatchEvent } from '../../contract/holders.js';
import type { LiveStack } from '../../core/live-stack.js';
import { readMinidump } from './minidump-file.js';
import { describeAttachUnderWine } from './attach-scenarios.js';
import { describeCloseUnderWine } from './close-scenarios.js';
import { describeElevatedUnderWine } from './elevated-scenarios.js';
import { describeGoCorpusUnderWine } from './go-corpus-scenarios.js';
import { describeImageViewsUnderWine } from './image-view-scenarios.js';
import { describeNamingUnderWine } from './naming-scenarios.js';
import { describeOwnProcessesUnderWine } from './own-process-scenarios.js';
import { describeRealWindows } from './real-windows-scenarios.js';
import { describeRunUnderWine } from './run-scenarios.js';
import { describeStackKillUnderWine } from './stack-kill-scenarios.js';
import { host, hostSummary, prepareWindows, REPO, underWine, waitFor, waitForFile, winPath, WindowsProcesses, type WindowsEnv } from './wine-harness.js';

// Natively (host.ts: vitest on Windows) nothing is missing; under Wine, Wine itself may be.
const missing = host.missing();
const haveWine = missing === null;
const required = Boolean(process.env.CI);

if (!haveWine && !required) {
  // Visible, not silent: say why the suite is skipped.
  console.warn(`tests/wine skipped: ${missing}`);
}

describe('Wine is available when required', () => {
  it.runIf(required)('finds wine and wineserver under CI', () => {
    expect(missing, 'CI is set but wine is missing: run scripts/wine-setup.sh (it installs wine as root)').toBeNull();
  });
});

describe.skipIf(!haveWine)(`win32 backend ${host.where}`, () => {
  let wine: WindowsEnv;
  let procs: WindowsProcesses;
  let scratch: string;
  let dir: string;
  const holderPids: Record<string, number> = {};
  const fixture = (name: string) => winPath(join(REPO, 'tests', 'wine', 'fixtures', name));
  const bin = winPath(join(REPO, 'bin', 'holdwatch.js'));
  const dist = winPath(join(REPO, 'dist'));

  async function startHolder(name: string, specs: string[]): Promise<void> {
    const ready = join(scratch, `${name}.ready`);
    const { child, logs } = procs.start(name, [fixture('holder.mjs'), winPath(ready), winPath(join(scratch, 'release')), ...specs]);
    holderPids[name] = JSON.parse(await waitForFile(ready, child, logs.err)).pid;
  }

  let scans = 0;
  async function scan(input = winPath(dir)): Promise<Snapshot> {
    const run = await procs.run(`scan-${scans++}`, [bin, 'scan', input, '--json']);
    expect(run.code, run.story).toBe(0);
    return JSON.parse(run.stdout) as Snapshot;
  }

  async function removeDir(): Promise<string> {
    const script = join(scratch, 'rm.cjs');
    writeFileSync(script, `try { require('fs').rmSync(process.argv[2], { recursive: true }); console.log('removed'); } catch (e) { console.log(e.code); }`);
    const run = await procs.run(`rm-${Date.now()}`, [winPath(script), winPath(dir)]);
    return run.stdout.trim();
  }

  beforeAll(async () => {
    const runId = `${process.pid}-${Date.now()}`;
    wine = prepareWindows(runId);
    scratch = host.makeScratch('holdwatch-wine-');
    dir = join(scratch, 'watched');
    for (const sub of ['held-dir', 'cwd-dir', 'mod']) mkdirSync(join(dir, sub), { recursive: true });
    mkdirSync(`${dir}-other`);
    writeFileSync(join(dir, 'share0.txt'), 'exclusive');
    writeFileSync(join(dir, 'shared.txt'), 'default sharing');
    writeFileSync(join(dir, 'data.db-shm'), Buffer.alloc(32 * 1024, 1)); // SQLite's -shm is a mapped file
    writeFileSync(join(`${dir}-other`, 'sibling.txt'), 'must not match');
    copyFileSync(wine.koffiBinary, join(dir, 'mod', 'addon-copy.node'));
    procs = new WindowsProcesses(wine, scratch);
    const w = (p: string) => winPath(join(dir, p));
    await Promise.all([
      startHolder('share0', [`share0=${w('share0.txt')}`, `shared=${winPath(join(`${dir}-other`, 'sibling.txt'))}`]),
      startHolder('shared', [`shared=${w('shared.txt')}`]),
      startHolder('dir', [`dir=${w('held-dir')}`]),
      startHolder('cwd', [`cwd=${w('cwd-dir')}`]),
      startHolder('module', [`module=${w('mod\\addon-copy.node')}`]),
      startHolder('mapped', [`mapped=${w('data.db-shm')}`]),
    ]);
    server = hostSummary();
  }, 300_000);

  // Says in the output which test a wineserver went away in (the holders die with it).
  let server = '';
  afterEach((context) => {
    const now = hostSummary();
    if (now !== server) console.error(`[wine] after "${context.task.name}": ${server} became ${now}; exits: ${procs.exits.slice(-5).join('; ')}`);
    server = now;
  });

  afterAll(() => {
    procs?.killAll();
    procs?.stopHost();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('scan --json finds each holder with its kind and pid, and nothing in the sibling prefix dir', async () => {
    const snapshot = await scan();
    expect(snapshot.platform).toBe('win32');
    expect(snapshot.dir).toBe(winPath(dir));
    const found = (kind: string, rel: string) => snapshot.holders.filter((h) => h.kind === kind && h.path === winPath(join(dir, rel))).map((h) => h.pid);
    expect(found('file', 'share0.txt')).toEqual([holderPids.share0]);
    expect(found('file', 'shared.txt')).toEqual([holderPids.shared]);
    expect(found('dir', 'held-dir')).toEqual([holderPids.dir]);
    expect(found('cwd', 'cwd-dir')).toEqual([holderPids.cwd]);
    expect(found('module', 'mod\\addon-copy.node')).toEqual([holderPids.module]);
    // Kept only by a view: both its handles were closed, the handle table has nothing on it.
    expect(found('mmap', 'data.db-shm')).toEqual([holderPids.mapped]);
    expect(snapshot.holders.filter((h) => h.path.endsWith('data.db-shm') && h.kind !== 'mmap')).toEqual([]);
    expect(snapshot.holders.filter((h) => h.path.includes('-other'))).toEqual([]);
    const cwdHolder = snapshot.holders.find((h) => h.kind === 'cwd')!;
    expect(cwdHolder.commandLine).toContain('holder.mjs');
    expect(cwdHolder.handle).toMatch(/^0x[0-9a-f]+$/);
    expect(cwdHolder.processName).toBe('node.exe');
    // The scanning holdwatch (and its name worker) holds nothing under the dir.
    const holderSet = new Set(Object.values(holderPids));
    expect(snapshot.holders.filter((h) => !holderSet.has(h.pid))).toEqual([]);
  }, 120_000);

  it('every spelling of the dir (Z:\\, Z:/, \\\\?\\, /z/, /tmp/, 8.3 alias) names the same dir and holders', async () => {
    const short = await procs.shortPathName(winPath(dir));
    expect(short).toContain('~'); // the scratch dir's long name has an alias: this really is the 8.3 form
    const forms = [...host.spellings(dir), short];
    const out = join(scratch, 'forms.json');
    const run = await procs.run('forms-scan', [fixture('forms-scan.mjs'), dist, winPath(out), ...forms]);
    expect(run.code, run.story).toBe(0);
    const results = JSON.parse(readFileSync(out, 'utf8')) as { form: string; dir: { display: string; matchPrefix: string }; holders: Snapshot['holders'] }[];
    const view = (r: (typeof results)[number]) => ({
      dir: r.dir.display,
      prefix: r.dir.matchPrefix,
      holders: r.holders.map((h) => `${h.pid} ${h.kind} ${h.handle} ${h.path}`).sort(),
    });
    const expected = view(results[0]!);
    expect(expected.dir).toBe(winPath(dir));
    expect(expected.holders.length, JSON.stringify(results[0])).toBeGreaterThanOrEqual(5);
    expect(results.map((r) => r.form)).toEqual(forms);
    results.forEach((result) => expect(view(result), result.form).toEqual(expected));
    // And end to end through the CLI, with the form CI machines hand over most (the 8.3 alias).
    const cli = await scan(short);
    expect({ dir: cli.dir, holders: cli.holders.map((h) => `${h.pid} ${h.kind} ${h.handle} ${h.path}`).sort() }).toEqual({
      dir: expected.dir,
      holders: expected.holders,
    });
  }, 120_000);

  it('a watched dir past MAX_PATH (370 characters) is watched like any other, its holder found', async () => {
    let long = join(scratch, 'long');
    for (let i = 1; i <= 6; i++) long = join(long, `a-rather-long-directory-name-number-${i}-to-pass-max-path-x`);
    mkdirSync(long, { recursive: true });
    writeFileSync(join(long, 'held.txt'), 'x');
    expect(winPath(long).length).toBeGreaterThan(260);
    await startHolder('long', [`shared=${winPath(join(long, 'held.txt'))}`]);
    const snapshot = await scan(winPath(long));
    expect(snapshot.dir).toBe(winPath(long));
    expect(snapshot.holders.map((h) => [h.pid, h.kind, h.path])).toEqual([[holderPids.long, 'file', winPath(join(long, 'held.txt'))]]);
  }, 120_000);

  it('ProcessSource: a child started with HOLDWATCH_RUN=abc and its grandchild carry the tag, and the parent chain is right', async () => {
    const out = join(scratch, 'env-tree.json');
    const run = await procs.run('env-tree', [fixture('env-tree.mjs'), dist, winPath(out)]);
    expect(run.code, run.story).toBe(0);
    const r = JSON.parse(readFileSync(out, 'utf8'));
    expect(r.sourceIsWin32).toBe(true);
    expect(r.child.brief).toMatchObject({ pid: r.child.pid, ppid: r.self.pid, name: 'node.exe' });
    expect(r.grandchild.brief).toMatchObject({ pid: r.grandchild.pid, ppid: r.child.pid, name: 'node.exe' });
    expect(r.child.brief.startedAtMs).toBeGreaterThanOrEqual(r.self.brief.startedAtMs);
    expect([r.child.tag, r.child.tagLowerCase, r.grandchild.tag]).toEqual(['abc', 'abc', 'abc']);
    expect(r.self.tag).toBeNull();
    expect(r.missing).toEqual({ tag: null, info: null });
    expect(r.child.info).toMatchObject({ pid: r.child.pid, ppid: r.self.pid, name: 'node.exe' });
    expect(r.child.info.commandLine).toContain('-e');
  }, 120_000);

  it('each handle holder carries its GrantedAccess decoded; processExtras reads the PEB cwd and the handle count; SeDebugPrivilege is turned on', async () => {
    const out = join(scratch, 'details.json');
    const run = await procs.run('details', [fixture('details.mjs'), dist, winPath(dir), String(holderPids.cwd), winPath(out)]);
    expect(run.code, run.story).toBe(0);
    const r = JSON.parse(readFileSync(out, 'utf8'));
    const access = (kind: string, rel: string) =>
      r.holders.find((h: { kind: string; path: string }) => h.kind === kind && h.path === winPath(join(dir, rel)))?.access;
    expect(access('file', 'share0.txt')).toMatchObject({ rights: ['read', 'write'] }); // O_RDWR: GENERIC_READ | GENERIC_WRITE, mapped
    expect(access('file', 'shared.txt')).toMatchObject({ rights: ['read'], flags: 'FILE_GENERIC_READ' });
    expect(access('cwd', 'cwd-dir')).toMatchObject({ raw: '0x00100020', flags: 'FILE_TRAVERSE | SYNCHRONIZE' });
    expect(access('module', 'mod\\addon-copy.node')).toBeNull(); // a mapped image has no handle
    expect(r.extras).toMatchObject({ cwd: winPath(join(dir, 'cwd-dir')), cwdUnreadableReason: null });
    expect(r.extras.handleCount).toBeGreaterThan(3);
    expect(r.tableReadsAround).toBe(1); // the scan after it; processExtras counted in the table the scan before read
    expect(r.gone).toBeNull();
    // Wine's user is an administrator whose token holds SeDebugPrivilege, off until a process turns it on.
    expect(r.privilege).toEqual({ disabledBefore: true, state: 'enabled', enabledInToken: true });
  }, 120_000);

  it('twenty hung name queries cost the worker its deadline each, not a restart each: the file after them is named, the next scan asks none of them again', async () => {
    // The files that hang come first in the holder's table, the one that matters after them.
    const STALLS = 20;
    const stallFiles = Array.from({ length: STALLS }, (_, i) => `stall-me-${i}.txt`);
    for (const file of stallFiles) writeFileSync(join(dir, file), 'the hang');
    writeFileSync(join(dir, 'named.txt'), 'fine');
    await startHolder('stall', [...stallFiles.map((f) => `shared=${winPath(join(dir, f))}`), `shared=${winPath(join(dir, 'named.txt'))}`]);
    const out = join(scratch, 'stall.json');
    const run = await procs.run('stall-scan', [fixture('stall-scan.mjs'), dist, winPath(dir), 'stall-me', winPath(out)], 150_000);
    expect(run.code, run.story).toBe(0);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    const stallPid = holderPids.stall;
    for (const scanResult of [result.first, result.second]) {
      expect(scanResult.holders.filter((h: { pid: number }) => h.pid === stallPid).map((h: { path: string }) => h.path)).toEqual([
        winPath(join(dir, 'named.txt')),
      ]);
      expect(scanResult.unnamed).toContainEqual(expect.objectContaining({ pid: stallPid, count: STALLS, name: 'node.exe' }));
      expect(scanResult.holders.map((h: { pid: number }) => h.pid)).toContain(holderPids.share0);
    }
    expect(result.first.unnamed.find((u: { pid: number }) => u.pid === stallPid).reason).toBe(
      "name query passed the worker's 500 ms deadline (a pipe that hangs, or a very slow disk)",
    );
    // 16 pool threads: 15 may hang before the worker retires, so 20 hangs took one fresh worker, not 20.
    expect(result.startsAfterFirst).toBe(2);
    expect(result.startsAfterSecond).toBe(2);
  }, 180_000);

  // 20,000 more names in a process listed first are more than the re-checks get through in a period.
  it.each([
    { filler: '', beside: '' },
    { filler: '20000', beside: ', also beside 20,000 names listed first' },
  ])(
    'close A, open B under the same handle value: a system scan shows B, and A no more (Wine: the row reads the same, so the name is asked again)$beside',
    async ({ filler }) => {
      const out = join(scratch, `reused${filler}.json`);
      const args = [fixture('reused-value-scan.mjs'), dist, winPath(dir), winPath(out), ...(filler ? [filler] : [])];
      const run = await procs.run(`reused-value${filler}`, args, 170_000);
      expect(run.code, run.story).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8'));
      expect(r.valueB).toBe(r.valueA); // the scenario: B took A's value
      expect(r.before).toEqual([winPath(join(dir, 'reused-a.txt'))]);
      expect(r.sameObjectWhileUnchanged).toBe(true);
      expect(r.shown.at(-1)).toBe(winPath(join(dir, 'reused-b.txt')));
      if (underWine) {
        // No object address: the process's rows are word for word what they were, and only a re-check tells.
        expect(r.rowsAfter).toEqual(r.rowsBefore);
        expect(r.rechecked).toBeGreaterThan(0);
      }
      if (filler) expect(r.bigListedFirst).toBe(true);
    },
    180_000,
  );

  it("scans while holdwatch's name worker re-checks a name in the background name nothing: the worker's duplicates are neither new handles nor holders", async () => {
    const out = join(scratch, 'worker-rows.json');
    const run = await procs.run('worker-rows', [fixture('worker-rows-scan.mjs'), dist, winPath(dir), winPath(scratch), winPath(out)], 150_000);
    expect(run.code, run.story).toBe(0);
    const r = JSON.parse(readFileSync(out, 'utf8'));
    expect(r.holderSeen).toBe(true);
    // The scenario: names were re-checked, and meanwhile the worker held more File handles than at rest.
    expect(r.rechecked).toBeGreaterThan(0);
    expect(r.rowsMost).toBeGreaterThan(r.rowsLeast);
    expect(r.named).toBe(0);
    expect(r.fromWorkers).toEqual([]);
  }, 180_000);

  it("the app scans on a worker thread, not the window's: the same holders as in-process, bad input still bad input", async () => {
    const out = join(scratch, 'threaded.json');
    const run = await procs.run('threaded-scan', [fixture('threaded-scan.mjs'), dist, winPath(dir), winPath(out)]);
    expect(run.code, run.story).toBe(0);
    const r = JSON.parse(readFileSync(out, 'utf8'));
    expect([r.threadedIsOwnClass, r.platform]).toEqual(['ThreadedHolderSource', 'win32']);
    expect(r.viaThread).toEqual(r.inProcess);
    expect(r.viaThread.length).toBeGreaterThanOrEqual(5); // share0, shared, dir, cwd, module, mapped...
    expect(r.badInput).toMatch(/^BadInputError: /);
  }, 120_000);

  it("holdwatch's own handle count is the same after 500 scans as after the first 5", async () => {
    const out = join(scratch, 'count.json');
    const run = await procs.run('handle-count', [fixture('handle-count.mjs'), dist, winPath(dir), '500', winPath(out)], 170_000);
    expect(run.code, run.story).toBe(0);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    expect(result.firstHolders).toBeGreaterThanOrEqual(5);
    expect(result.lastHolders).toBe(result.firstHolders);
    expect(result.restrictedHolders).toBe(result.firstHolders);
    expect(result.afterOne).toBeGreaterThan(10); // a real count: node.exe alone holds dozens
    expect(result.afterAll).toBe(result.afterOne);
    expect(result.afterRestricted).toBe(result.afterOne);
  }, 180_000);

  it('--kill-leftovers on Windows: a process whose start time is 1 ms off is left alone, its own start time ends it through the same handle', async () => {
    const out = join(scratch, 'end-process.json');
    const run = await procs.run('end-process', [fixture('end-process.mjs'), dist, winPath(out)]);
    expect(run.code, run.story).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ offByOne: 'gone', aliveAfterRefusal: true, same: 'ended', exitCode: 1, gone: 'gone' });
  }, 120_000);

  it('the system handle table read nonstop while 30 Wine processes start from Linux: the wineserver stays up', async () => {
    // Wine 8.0's stock server dies here in 4 runs of 4 (each new process's handle table is empty for a
    // moment, and enumerating an empty table walks off its end); the suite's server has that fixed.
    const before = hostSummary();
    const ready = join(scratch, 'table-loop.ready');
    const out = join(scratch, 'table-loop.json');
    const { child, logs } = procs.start('table-loop', [fixture('handle-table-loop.mjs'), dist, winPath(ready), '20', winPath(out)]);
    await waitForFile(ready, child, logs.err);
    const starts = Array.from({ length: 30 }, (_, i) => procs.run(`starter-${i}`, ['-e', '0'], 90_000));
    const codes = (await Promise.all(starts)).map((r) => r.code);
    await new Promise<void>((done) => (child.exitCode !== null ? done() : child.once('exit', () => done())));
    expect(hostSummary(), `exits: ${procs.exits.slice(-8).join('; ')}`).toBe(before);
    expect(
      codes.every((code) => code === 0),
      `exit codes ${codes.join(',')}`,
    ).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8')).reads).toBeGreaterThan(100);
  }, 150_000);

  it('watch --json prints "appeared" when a holder opens a file, "gone" when it exits, and exits 0 on Ctrl-C', async () => {
    const live = `${scratch}/watched-live`;
    mkdirSync(live);
    writeFileSync(join(live, 'live.txt'), 'held later');
    const watch = procs.start('watch', [bin, 'watch', winPath(live), '--json', '--interval', '200']);
    const exited = new Promise<number | null>((resolve) => watch.child.once('exit', (code) => resolve(code)));
    // The notice goes to stderr once the first poll is scheduled: only then can "appeared" be trusted.
    await waitFor(() => readFileSync(watch.logs.err, 'utf8').includes('holdwatch: watching'), watch.logs.err);
    const events = () =>
      readFileSync(watch.logs.out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as WatchEvent);
    expect(events()).toEqual([]);

    const ready = join(scratch, 'live.ready');
    const release = join(scratch, 'live.release');
    const open = join(scratch, 'live.open');
    // The holder runs (and is polled) before it opens the file: the poll must notice a known
    // process whose File handles changed, not only a new process.
    const holder = procs.start('live-holder', [
      fixture('holder.mjs'),
      winPath(ready),
      winPath(release),
      `wait=${winPath(open)}`,
      `share0=${winPath(join(live, 'live.txt'))}`,
    ]);
    const pid = JSON.parse(await waitForFile(ready, holder.child, holder.logs.err)).pid as number;
    const ours = (type: string) => events().filter((e) => e.type === type && e.holder.pid === pid);
    await new Promise((r) => setTimeout(r, 1000)); // a few polls see it holding nothing under the dir
    expect(ours('appeared')).toEqual([]);
    writeFileSync(open, 'now');
    await waitFor(() => ours('appeared').length > 0, watch.logs.err);
    expect(ours('appeared').map((e) => [e.holder.kind, e.holder.path, e.holder.processName])).toEqual([['file', winPath(join(live, 'live.txt')), 'node.exe']]);

    writeFileSync(release, 'go');
    await waitFor(() => ours('gone').length > 0, watch.logs.err);
    expect(ours('gone').map((e) => e.holder.path)).toEqual([winPath(join(live, 'live.txt'))]);
    expect(events().map((e) => e.type)).toEqual(['appeared', 'gone']);

    await procs.interrupt(watch.child);
    expect(await exited).toBe(0);
  }, 120_000);

  it('stack <pid> writes a minidump of a node.exe holder into <data dir>/dumps and lists its threads; a bad pid exits 2', async () => {
    const data = join(scratch, 'data');
    const run = await procs.run('stack', [fixture('stack-cli.mjs'), dist, winPath(data), 'stack', String(holderPids.share0), '--json']);
    expect(run.code, run.story).toBe(0);
    const stack = JSON.parse(run.stdout) as LiveStack;
    expect(stack).toMatchObject({ kind: 'stack', pid: holderPids.share0, tool: 'minidump' });
    expect(stack.dumpPath).toMatch(new RegExp(`^${winPath(join(data, 'dumps')).replace(/\\/g, '\\\\')}\\\\node-${holderPids.share0}-[\\dT-]+Z\\.dmp$`));
    const dump = readMinidump(readFileSync(host.fromWindows(stack.dumpPath!, wine)));
    expect(dump.signature).toBe('MDMP');
    expect(stack.threads.length).toBeGreaterThan(1); // node.exe runs a main thread and a libuv pool
    expect(dump.threadIds.sort((a, b) => a - b)).toEqual(stack.threads.map((t) => t.id).sort((a, b) => a - b));
    expect(
      dump.moduleNames.some((name) => /\\node\.exe$/i.test(name)),
      dump.moduleNames.join(', '),
    ).toBe(true);

    const bad = await procs.run('stack-bad', [fixture('stack-cli.mjs'), dist, winPath(data), 'stack', '99999999']);
    expect([bad.code, bad.stderr]).toEqual([2, 'holdwatch: no process with pid 99999999\n']);
  }, 120_000);

  it('rmdir fails with EBUSY/ENOTEMPTY while held and succeeds once the holders exit', async () => {
    const held = await removeDir();
    expect(['EBUSY', 'ENOTEMPTY'], `${held}; ${hostSummary()}; exits so far: ${procs.exits.filter((e) => !/^(scan|rm)-/.test(e)).join('; ')}`).toContain(held);
    expect(existsSync(dir)).toBe(true);
    writeFileSync(join(scratch, 'release'), 'go');
    procs.killAll();
    await new Promise((r) => setTimeout(r, 500));
    expect(await removeDir()).toBe('removed');
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}-other`)).toBe(true);
  }, 120_000);
});

// `holdwatch run` scenarios: after the suite above, never beside it (see run-scenarios.ts).
describeRunUnderWine(haveWine);
describeElevatedUnderWine(haveWine);
describeCloseUnderWine(haveWine);
describeAttachUnderWine(haveWine);
describeRealWindows(haveWine);
describeGoCorpusUnderWine(haveWine);
describeNamingUnderWine(haveWine);
describeImageViewsUnderWine(haveWine);
describeOwnProcessesUnderWine(haveWine);
describeStackKillUnderWine(haveWine);
