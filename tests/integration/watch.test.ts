// `holdwatch watch --json` against real processes: appeared when a holder opens, gone when it closes,
// changed when its process execs, and a clean exit 0 on SIGTERM / SIGINT.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot, WatchEvent } from '../../contract/holders.js';
import { runCli, startCli } from '../support/cli.js';
import { killAllHolders, pythonExecingOnCue, pythonHoldingFile, pythonRetitling, stopHolder } from '../support/holders.js';

let dir: string;
const watchers: ReturnType<typeof startCli>[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-watch-'));
});

afterEach(async () => {
  await killAllHolders();
  for (const w of watchers.splice(0)) w.child.kill('SIGKILL');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function exitOf(w: ReturnType<typeof startCli>): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => w.child.once('exit', (code, signal) => resolve({ code, signal })));
}

const isEvent = (type: WatchEvent['type'], pid: number) => (line: string) => {
  const event = JSON.parse(line) as WatchEvent;
  return event.type === type && event.holder.pid === pid;
};

describe('holdwatch watch --json', () => {
  it('reports appeared when a holder opens and gone when it closes', async () => {
    const watch = startCli(['watch', dir, '--json', '--interval', '50']);
    watchers.push(watch);
    await new Promise((r) => setTimeout(r, 300)); // let the first (empty) poll happen
    const holder = await pythonHoldingFile(join(dir, 'a.txt'));
    const appeared = JSON.parse(await watch.waitForLine(isEvent('appeared', holder.pid))) as WatchEvent;
    expect(appeared.holder).toMatchObject({ kind: 'file', path: join(dir, 'a.txt'), pid: holder.pid });
    expect(new Date(appeared.at).toString()).not.toBe('Invalid Date');

    holder.send('close');
    const gone = JSON.parse(await watch.waitForLine(isEvent('gone', holder.pid))) as WatchEvent;
    expect(gone.holder.path).toBe(join(dir, 'a.txt'));
    await stopHolder(holder);

    const exited = exitOf(watch);
    watch.child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on Ctrl-C', async () => {
    const watch = startCli(['watch', dir, '--interval', '50']);
    watchers.push(watch);
    await watch.waitForStderrLine((l) => l.includes('Ctrl-C to stop'));
    const exited = exitOf(watch);
    watch.child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('prints one line per event when piped without --json', async () => {
    const watch = startCli(['watch', dir, '--interval', '50']);
    watchers.push(watch);
    await new Promise((r) => setTimeout(r, 300));
    const holder = await pythonHoldingFile(join(dir, 'b.txt'));
    const line = await watch.waitForLine((l) => l.includes(`[${holder.pid}]`));
    expect(line).toMatch(new RegExp(`^\\S+ \\+ python3[.\\d]*\\[${holder.pid}\\] file b\\.txt$`));
  });

  it('never holds the directory it watches, even when started inside it', async () => {
    const inside = join(dir, 'cwd-here');
    mkdirSync(join(inside, 'sub', 'deeper'), { recursive: true });
    const watch = startCli(['watch', inside, '--json', '--interval', '50'], { cwd: inside });
    watchers.push(watch);
    await new Promise((r) => setTimeout(r, 500));
    const result = await runCli(['scan', inside, '--json']);
    const snapshot = JSON.parse(result.stdout) as Snapshot;
    expect(snapshot.holders.filter((h) => h.pid === watch.child.pid)).toEqual([]);
    // Its change feed watches every dir of the tree with inotify: marks on the inodes, no open file there.
    // (An fd of a scan in flight may close between the listing and its readlink.)
    const links = readdirSync(`/proc/${watch.child.pid}/fd`).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${watch.child.pid}/fd/${fd}`)];
      } catch {
        return [];
      }
    });
    expect(links).toContain('anon_inode:inotify');
    expect(links.filter((l) => l.startsWith(inside))).toEqual([]);
    expect(watch.child.exitCode).toBeNull(); // still watching
  });
});

describe('holdwatch watch, a holder that execs', () => {
  const eventOf = (line: string) => JSON.parse(line) as WatchEvent;

  it('sends the row again as changed, with the new name and command line, and nothing gone', async () => {
    const held = join(mkdtempSync(join(dir, 'exec-')), 'held.txt');
    const watch = startCli(['watch', dirname(held), '--json', '--interval', '50']);
    const plain = startCli(['watch', dirname(held), '--interval', '50']);
    watchers.push(watch, plain);
    const holder = await pythonExecingOnCue(held);
    const appeared = eventOf(await watch.waitForLine(isEvent('appeared', holder.pid)));
    expect(appeared.holder.processName).toMatch(/^python3/);
    // Both watches see the python3 first, or the one that starts later may meet only the sleep.
    await plain.waitForLine((l) => l.includes(` + python3[${holder.pid}]`));
    holder.send('exec');
    const changed = eventOf(await watch.waitForLine(isEvent('changed', holder.pid)));
    expect(changed.holder).toMatchObject({ processName: 'sleep', commandLine: 'sleep 60', path: held, handle: appeared.holder.handle });
    expect(changed.holder.processStartedAtMs).toBe(appeared.holder.processStartedAtMs);
    const ofHolder = watch.lines.map(eventOf).filter((e) => e.holder.pid === holder.pid);
    expect(ofHolder.map((e) => e.type)).toEqual(['appeared', 'changed']);
    // Piped without --json: one line per event, `~` for the change.
    expect(await plain.waitForLine((l) => l.includes(` ~ sleep[${holder.pid}]`))).toMatch(/ ~ sleep\[\d+\] file held\.txt$/);
  });

  it('follows an exec of the same program (python3 running python3): only its command line changes', async () => {
    const held = join(mkdtempSync(join(dir, 'exec-same-')), 'held.txt');
    const watch = startCli(['watch', dirname(held), '--json', '--interval', '50']);
    watchers.push(watch);
    const holder = await pythonExecingOnCue(held, ['/usr/bin/python3', 'python3', '-c', 'import time; time.sleep(60)']);
    const appeared = eventOf(await watch.waitForLine(isEvent('appeared', holder.pid)));
    holder.send('exec');
    const changed = eventOf(await watch.waitForLine(isEvent('changed', holder.pid)));
    expect(changed.holder.processName).toBe(appeared.holder.processName);
    expect(changed.holder.commandLine).toBe('python3 -c "import time; time.sleep(60)"');
  });

  it('sends nothing for a process that rewrites its own title without exec (setproctitle, postgres)', async () => {
    const watchedDir = mkdtempSync(join(dir, 'retitle-'));
    const watch = startCli(['watch', watchedDir, '--json', '--interval', '50']);
    watchers.push(watch);
    const holder = await pythonRetitling(join(watchedDir, 'held.txt'));
    await watch.waitForLine(isEvent('appeared', holder.pid));
    await holder.ask('retitle');
    expect(readFileSync(`/proc/${holder.pid}/cmdline`, 'latin1')).toMatch(/^retitled\0/);
    // A file opened after the retitle: the scan that shows it read the new title too.
    await holder.ask(`open ${join(watchedDir, 'after.txt')}`);
    await watch.waitForLine((line) => isEvent('appeared', holder.pid)(line) && eventOf(line).holder.path.endsWith('after.txt'));
    const ofHolder = watch.lines.map(eventOf).filter((e) => e.holder.pid === holder.pid);
    expect(ofHolder.map((e) => `${e.type} ${basename(e.holder.path)}`)).toEqual(['appeared held.txt', 'appeared after.txt']);
    // Its rows keep the command line it was met with: one title is as good as another, and a row per
    // title change per poll is what a retitling server (postgres, per query) would otherwise cost.
    expect(ofHolder[1]!.holder.commandLine).toBe(ofHolder[0]!.holder.commandLine);
  });
});
