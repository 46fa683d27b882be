// advapi32.dll: the user a process runs as (token -> SID -> DOMAIN\name).
import { lazyLibrary, NativeMemory } from '../koffi-loader.js';
import { closeHandle, lastError } from './kernel32.js';
import { Win32Error } from './win-errors.js';
import type { ProcessHandle, TokenHandle } from './win-types.js';

const fn = lazyLibrary('advapi32.dll');

/** Shared with debug-privilege.ts: each binding is declared once. */
export const openProcessToken = fn('bool OpenProcessToken(void *process, uint32_t access, _Out_ uint64_t *token)');
export const getTokenInformation = fn('bool GetTokenInformation(void *token, int32_t cls, void *info, uint32_t length, _Out_ uint32_t *returnLength)');
const lookupAccountSidW = fn(
  'bool LookupAccountSidW(void *system, void *sid, void *name, _Inout_ uint32_t *nameChars, void *domain, _Inout_ uint32_t *domainChars, _Out_ uint32_t *use)',
);

export const TOKEN_QUERY = 0x0008;
const TokenUser = 1;

/** `DOMAIN\user` of the process's token. */
export function processUser(process: ProcessHandle): string {
  const out = [0n];
  if (!openProcessToken()(process, TOKEN_QUERY, out)) throw new Win32Error('OpenProcessToken', lastError());
  const token = BigInt(out[0] ?? 0) as TokenHandle;
  // TOKEN_USER holds a pointer to the SID inside the same buffer, so the buffer is native memory.
  const info = new NativeMemory(256);
  try {
    const length = [0];
    if (!getTokenInformation()(token, TokenUser, info.address, info.size, length)) throw new Win32Error('GetTokenInformation', lastError());
    const sid = info.read(8).readBigUInt64LE(0);
    const name = Buffer.alloc(256 * 2);
    const domain = Buffer.alloc(256 * 2);
    const nameChars = [256];
    const domainChars = [256];
    if (!lookupAccountSidW()(null, sid, name, nameChars, domain, domainChars, [0])) throw new Win32Error('LookupAccountSidW', lastError());
    const user = name.toString('utf16le', 0, (nameChars[0] ?? 0) * 2);
    const dom = domain.toString('utf16le', 0, (domainChars[0] ?? 0) * 2);
    return dom ? `${dom}\\${user}` : user;
  } finally {
    info.free();
    closeHandle(token);
  }
}
