// psapi.dll: loaded modules. A DLL mapped from under the watched dir blocks its deletion even
// though the process holds no file handle on it (the image section holds it).
import { lazyLibrary } from '../koffi-loader.js';
import { lastError } from './kernel32.js';
import { Win32Error } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';

const fn = lazyLibrary('psapi.dll');

const enumProcessModulesEx = fn('bool EnumProcessModulesEx(void *process, void *modules, uint32_t bytes, _Out_ uint32_t *needed, uint32_t filter)');
const getModuleFileNameExW = fn('uint32_t GetModuleFileNameExW(void *process, void *module, void *name, uint32_t chars)');

const LIST_MODULES_ALL = 0x3;

/** Module base addresses (HMODULE), the list re-read until it fits (modules load concurrently). */
export function listModules(process: ProcessHandle): bigint[] {
  let bytes = 256 * 8;
  for (let attempt = 0; attempt < 5; attempt++) {
    const buf = Buffer.alloc(bytes);
    const needed = [0];
    if (!enumProcessModulesEx()(process, buf, bytes, needed, LIST_MODULES_ALL)) throw new Win32Error('EnumProcessModulesEx', lastError());
    const neededBytes = needed[0] ?? 0;
    if (neededBytes <= bytes) {
      const modules: bigint[] = [];
      for (let at = 0; at + 8 <= neededBytes; at += 8) modules.push(buf.readBigUInt64LE(at));
      return modules;
    }
    bytes = neededBytes + 16 * 8;
  }
  throw new Win32Error('EnumProcessModulesEx', 122);
}

export function moduleFileName(process: ProcessHandle, module: bigint): string {
  const buf = Buffer.alloc(1024 * 2);
  const chars = getModuleFileNameExW()(process, module, buf, 1024) as number;
  if (chars === 0) throw new Win32Error('GetModuleFileNameExW', lastError());
  return buf.toString('utf16le', 0, chars * 2);
}
