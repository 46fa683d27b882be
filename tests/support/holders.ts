// Real processes that really hold files: python3 and node children that open what they are told,
// print "ready", and sleep until killed. Every child is tracked and killed by killAllHolders().
import { spawn, type ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();

export interface HolderProcess {
  pid: number;
  child: ChildProcess;
  /** Sends a line to the holder's stdin (python holders: "close" closes everything and keeps running). */
  send(line: string): void;
}

function start(command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv): Promise<HolderProcess> {
  const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`holder ${command} exited early (${code}): ${out}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('ready\n')) resolve({ pid: child.pid!, child, send: (line) => child.stdin.write(line + '\n') });
    });
  });
}

// Python holders. Each opens its targets, says ready, then closes everything on "close" and exits on EOF.
const PY_PRELUDE = `
import os, sys, mmap
held = []
`;
const PY_WAIT = `
print("ready", flush=True)
for line in sys.stdin:
    if line.strip() == "close":
        for h in held:
            h.close() if hasattr(h, "close") else os.close(h)
        held.clear()
        print("closed", flush=True)
`;

export function pythonHoldingFile(path: string): Promise<HolderProcess> {
  return start('python3', ['-c', `${PY_PRELUDE}held.append(open(sys.argv[1], "a"))${PY_WAIT}`, path]);
}

/** Sends a line to a holder that answers each with "done"; resolves on the answer. */
function asker(holder: HolderProcess): (line: string) => Promise<void> {
  return (line) =>
    new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        if (!chunk.toString().includes('done')) return;
        holder.child.stdout!.off('data', onData);
        resolve();
      };
      holder.child.stdout!.on('data', onData);
      holder.send(line);
    });
}

/** A python3 holding `count` files it makes in `dir` (f0000.txt, ...), open to append. */
export function pythonHoldingManyFiles(dir: string, count: number): Promise<HolderProcess> {
  const opens = `for i in range(int(sys.argv[2])): held.append(open(os.path.join(sys.argv[1], "f%04d.txt" % i), "a"))`;
  return start('python3', ['-c', `${PY_PRELUDE}${opens}${PY_WAIT}`, dir, String(count)]);
}

/**
 * A python3 that holds nothing until told: `open(path)` opens it (to append) and keeps it, `chdir(dir)`
 * moves its cwd; each resolves once done.
 */
export async function pythonOpener(): Promise<HolderProcess & { open(path: string): Promise<void>; chdir(dir: string): Promise<void> }> {
  const script = `${PY_PRELUDE}print("ready", flush=True)
for line in sys.stdin:
    verb, path = line.rstrip("\\n").split(" ", 1)
    if verb == "open":
        held.append(open(path, "a"))
    else:
        os.chdir(path)
    print("done", flush=True)
`;
  const holder = await start('python3', ['-c', script]);
  const ask = asker(holder);
  return { ...holder, open: (path) => ask(`open ${path}`), chdir: (dir) => ask(`cd ${dir}`) };
}

/**
 * A python3 that opens `path` (to append) with an fd that survives exec, says ready, and on "exec"
 * becomes `argv` (by default `sleep 60`), still holding it: the same process and fd under another
 * command line.
 */
export function pythonExecingOnCue(path: string, argv = ['/bin/sleep', 'sleep', '60']): Promise<HolderProcess> {
  const script = `import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
os.set_inheritable(fd, True)
print("ready", flush=True)
sys.stdin.readline()
os.execv(sys.argv[2], sys.argv[3:])
`;
  return start('python3', ['-c', script, path, ...argv]);
}

/**
 * A python3 holding `path` that, on "retitle", rewrites its own argv in memory (as setproctitle and
 * postgres do: its /proc cmdline changes, nothing else) and, on "open <path>", opens another file;
 * each answers "done".
 */
export async function pythonRetitling(path: string): Promise<HolderProcess & { ask(line: string): Promise<void> }> {
  const script = `import os, sys
held = [open(sys.argv[1], "a")]
stat = open("/proc/self/stat").read().rsplit(")", 1)[1].split()
arg_start, arg_end = int(stat[45]), int(stat[46])
print("ready", flush=True)
for line in sys.stdin:
    verb, _, arg = line.rstrip("\\n").partition(" ")
    if verb == "retitle":
        with open("/proc/self/mem", "r+b", buffering=0) as mem:
            mem.seek(arg_start)
            mem.write(b"retitled".ljust(arg_end - arg_start, b"\\0"))
    else:
        held.append(open(arg, "a"))
    print("done", flush=True)
`;
  const holder = await start('python3', ['-c', script, path]);
  return { ...holder, ask: asker(holder) };
}

export function pythonHoldingUnlinkedFile(path: string): Promise<HolderProcess> {
  return start('python3', ['-c', `${PY_PRELUDE}f = open(sys.argv[1], "w"); os.unlink(sys.argv[1]); held.append(f)${PY_WAIT}`, path]);
}

export function pythonHoldingDirFd(path: string): Promise<HolderProcess> {
  return start('python3', ['-c', `${PY_PRELUDE}held.append(os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY))${PY_WAIT}`, path]);
}

export function pythonWithCwd(dir: string): Promise<HolderProcess> {
  return start('python3', ['-c', `${PY_PRELUDE}${PY_WAIT}`], dir);
}

/**
 * Maps the file with libc's mmap, then closes the fd: only the mapping holds it (the shape a loaded
 * .so/DLL has). Python's own mmap module keeps a dup of the fd, so it cannot make this shape.
 */
export function pythonMmapOnly(path: string): Promise<HolderProcess> {
  return start('python3', [
    '-c',
    `${PY_PRELUDE}
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = os.open(sys.argv[1], os.O_RDONLY)
addr = libc.mmap(None, 4096, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
assert addr not in (None, ctypes.c_void_p(-1).value), ctypes.get_errno()
os.close(fd)${PY_WAIT}`,
    path,
  ]);
}

/**
 * The details panel's subject: runs in `dir`, holds `written.log` open for writing (with an flock)
 * and `read.txt` for reading, and has a child python3 that exits when its stdin (from this one) closes.
 */
export function pythonHoldingForDetails(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<HolderProcess> {
  return start(
    'python3',
    [
      '-c',
      `${PY_PRELUDE}
import fcntl, subprocess
w = open("written.log", "w"); fcntl.flock(w, fcntl.LOCK_EX); held.append(w)
open("read.txt", "w").close(); held.append(open("read.txt", "r"))
kid = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)${PY_WAIT}`,
    ],
    dir,
    env,
  );
}

export function nodeHoldingFile(path: string): Promise<HolderProcess> {
  const script = `const fs=require('fs'); const fd=fs.openSync(process.argv[1],'a'); process.stdout.write('ready\\n'); process.stdin.on('data',()=>{}); process.stdin.on('end',()=>process.exit(0)); void fd;`;
  return start(process.execPath, ['-e', script, path]);
}

export function nodeHoldingDir(path: string): Promise<HolderProcess> {
  const script = `const fs=require('fs'); const d=fs.opendirSync(process.argv[1]); process.stdout.write('ready\\n'); process.stdin.on('data',()=>{}); process.stdin.on('end',()=>process.exit(0)); void d;`;
  return start(process.execPath, ['-e', script, path]);
}

export async function stopHolder(holder: HolderProcess): Promise<void> {
  if (holder.child.exitCode !== null || holder.child.signalCode !== null) return;
  const exited = new Promise((resolve) => holder.child.once('exit', resolve));
  holder.child.kill('SIGKILL');
  await exited;
}

export async function killAllHolders(): Promise<void> {
  await Promise.all([...children].map((child) => stopHolder({ pid: child.pid!, child, send: () => {} })));
}
