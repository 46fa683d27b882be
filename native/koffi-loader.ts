// Loads koffi on first use only: Windows binds its DLLs through it, a Linux walk its libc calls
// (linux/fd-links.ts); nothing here runs at import time (native/index.ts imports win32/ lazily).
// createRequire: koffi is CommonJS with a native addon.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Koffi from 'koffi';

export type KoffiModule = typeof Koffi;
export type KoffiFunction = ReturnType<Koffi.LibraryHandle['func']>;

let koffi: KoffiModule | undefined;

export function loadKoffi(): KoffiModule {
  koffi ??= linuxPrebuiltAddon() ?? (createRequire(import.meta.url)('koffi') as KoffiModule);
  return koffi;
}

/**
 * On Linux under Node: koffi's prebuilt addon for glibc, opened by its file (process.dlopen). The
 * package's loader finds the same file, but first copies every export of node:fs and node:util into
 * namespaces (which loads streams, fs/promises and worker_threads) and reads Node's ELF header for glibc
 * or musl; and a require of the file by name resolves it through two packages' exports and starts
 * CommonJS's tracing: most of the cost of koffi's load, which a one-shot scan pays. The two packages are
 * looked for where Node's resolution looks (nodeModulesDirs). Null where that file is not this
 * machine's (musl fails to load it, other arches name it otherwise, Electron keeps it in asar) or is of
 * another koffi: the package's loader serves.
 */
function linuxPrebuiltAddon(): KoffiModule | null {
  if (process.platform !== 'linux' || process.versions.electron !== undefined) return null;
  if (process.arch !== 'x64' && process.arch !== 'arm64') return null;
  try {
    const koffiDir = packageDir('koffi', dirname(fileURLToPath(import.meta.url)));
    if (koffiDir === null) return null;
    // Node resolves a package's own dependencies from its real path (pnpm links koffi in from its store).
    const binaryDir = packageDir(`@koromix/koffi-linux-${process.arch}`, realpathSync.native(koffiDir));
    const version = packageVersion(koffiDir);
    if (binaryDir === null || packageVersion(binaryDir) !== version) return null;
    const addon = { exports: {} as KoffiModule & { version?: unknown } };
    process.dlopen(addon, join(binaryDir, `linux_${process.arch}`, 'koffi.node'));
    return addon.exports.version === version ? addon.exports : null;
  } catch {
    return null;
  }
}

/** The first `<dir>/node_modules/<name>` holding a package.json, from `from` up, as Node looks; null when none does. */
function packageDir(name: string, from: string): string | null {
  for (const modules of nodeModulesDirs(from)) {
    const dir = join(modules, name);
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return null;
}

/** `from` and every dir above it, each with `/node_modules` added, except those that are node_modules themselves. */
export function nodeModulesDirs(from: string): string[] {
  const dirs: string[] = [];
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') dirs.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) return dirs;
  }
}

/** The version in a package's package.json. */
function packageVersion(dir: string): unknown {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version;
}

/** One DLL, its functions bound the first time each is called (declared once, in its module). */
export function lazyLibrary(dll: string): (prototype: string) => () => KoffiFunction {
  let lib: Koffi.LibraryHandle | undefined;
  return (prototype) => {
    let fn: KoffiFunction | undefined;
    return () => {
      lib ??= loadKoffi().load(dll);
      fn ??= lib.func(prototype);
      return fn;
    };
  };
}

/**
 * Native memory owned by one caller and freed in its `finally`. ntdll fills buffers with pointers
 * into themselves, so parsers need the address; reading goes through koffi.decode (a copy), never
 * a zero-copy view (Electron forbids external buffers).
 */
export class NativeMemory {
  private freed = false;
  readonly address: bigint;
  constructor(readonly size: number) {
    this.address = loadKoffi().alloc('uint8_t', Math.max(1, size)) as bigint;
  }
  read(length = this.size, offset = 0): Buffer {
    const n = Math.max(0, Math.min(length, this.size - offset));
    if (n === 0) return Buffer.alloc(0);
    const bytes = loadKoffi().decode(this.address, offset, 'uint8_t', n) as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  free(): void {
    if (this.freed) return;
    this.freed = true;
    loadKoffi().free(this.address);
  }
}
