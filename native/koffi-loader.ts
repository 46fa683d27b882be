// Loads koffi on first use only: Windows binds its DLLs through it, a Linux poller its libc calls
// (linux/fd-links.ts), and a one-shot Linux scan never loads it (native/index.ts imports win32/ lazily,
// and nothing here runs at import time). createRequire: koffi is CommonJS with a native addon.
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';

export type KoffiModule = typeof Koffi;
export type KoffiFunction = ReturnType<Koffi.LibraryHandle['func']>;

let koffi: KoffiModule | undefined;

export function loadKoffi(): KoffiModule {
  koffi ??= createRequire(import.meta.url)('koffi') as KoffiModule;
  return koffi;
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
