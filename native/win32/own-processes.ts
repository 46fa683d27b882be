// holdwatch's own processes, never holders whatever dir they run from. The portable app unpacks into
// %TEMP% and runs from there: with TEMP watched, its executable, DLLs and app.asar would be listed as
// held by holdwatch itself. Its own are: this process, its name worker, the host it scans for (the
// elevated scan worker's), the console hosts (conhost.exe) Windows starts for those, in their current
// directory, and in the app Chromium's processes: descendants running the app's own executable. A test
// the app starts runs another executable, so it and what it starts stay listed.

export interface ProcessLink {
  pid: number;
  ppid: number;
  /** The image's file name (`holdwatch.exe`). */
  imageName: string;
}

const CONSOLE_HOST = 'conhost.exe';

/**
 * `roots` and every descendant of them running `appImage` (the app's executable name, under Electron;
 * null under plain Node, where a test may be node.exe too) or the console host.
 */
export function ownProcesses(processes: Iterable<ProcessLink>, roots: Iterable<number>, appImage: string | null): Set<number> {
  const own = new Set([...roots].filter((pid) => pid > 0)); // 0: no name worker running
  const images = new Set([CONSOLE_HOST, ...(appImage === null ? [] : [appImage.toLowerCase()])]);
  const candidates = [...processes].filter((p) => images.has(p.imageName.toLowerCase()) && !own.has(p.pid) && p.ppid !== p.pid);
  // Parents come before children only by chance: go round until no process joins.
  for (let joined = true; joined;) {
    joined = false;
    for (const p of candidates)
      if (!own.has(p.pid) && own.has(p.ppid)) {
        own.add(p.pid);
        joined = true;
      }
  }
  return own;
}
