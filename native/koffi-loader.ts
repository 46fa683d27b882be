// Loads koffi on first use only: Windows binds its DLLs through it, a Linux walk its libc calls
// (linux/fd-links.ts); nothing here runs at import time (native/index.ts imports win32/ lazily).
// createRequire: koffi is CommonJS with a native addon.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Koffi from 'koffi';

export type KoffiModule = typeof Koffi;
export type KoffiFunction = ReturnType<Koffi.LibraryHandle['func']>;

let koffi: KoffiModule | undefined;

export function loadKoffi(): KoffiModule {
  koffi ??= linuxPrebuiltAddon() ?? (createRequire(import.meta.url)('koffi') as KoffiModule);
  return koffi;
}

/**
 * On Linux under Node: koffi's prebuilt addon for glibc, required by its file. The package's loader
 * finds the same file, but first copies every export of node:fs and node:util into namespaces (which
 * loads streams, fs/promises and worker_threads) and reads Node's ELF header for glibc or musl: most of
 * the cost of koffi's load, which a one-shot scan pays. Null where that file is not this machine's
 * (musl fails to load it, other arches name it otherwise, Electron keeps it in asar) or is of another
 * koffi: the package's loader serves.
 */
function linuxPrebuiltAddon(): KoffiModule | null {
  if (process.platform !== 'linux' || process.versions.electron !== undefined) return null;
  if (process.arch !== 'x64' && process.arch !== 'arm64') return null;
  try {
    const koffiEntry = createRequire(import.meta.url).resolve('koffi');
    const fromKoffi = createRequire(koffiEntry);
    const addon = fromKoffi(`@koromix/koffi-linux-${process.arch}/linux_${process.arch}/koffi.node`) as KoffiModule & { version?: unknown };
    return addon.version === koffiVersion(koffiEntry) ? addon : null;
  } catch {
    return null;
  }
}

/** The version in koffi's package.json (its exports do not list the file, so it is read by path). */
function koffiVersion(koffiEntry: string): unknown {
  return (JSON.parse(readFileSync(join(dirname(koffiEntry), 'package.json'), 'utf8')) as { version?: unknown }).version;
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
