// shell32.dll: starting a program elevated (ShellExecuteExW, verb "runas": the UAC consent prompt)
// and asking whether this process already runs as an administrator.
import { lazyLibrary, loadKoffi } from '../koffi-loader.js';
import { lastError } from './kernel32.js';
import { Win32Error } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';

const fn = lazyLibrary('shell32.dll');

/**
 * SHELLEXECUTEINFOW (x64: 112 bytes), declared once, before the function that takes it is bound.
 * Integer fields get 0, never null: koffi 3.3.4 ended node.exe with 0xC0000409 (no JS error) on a
 * null in a uint64_t field, seen under Wine.
 */
interface ShellExecuteInfo {
  cbSize: number;
  fMask: number;
  hwnd: null;
  lpVerb: string;
  lpFile: string;
  lpParameters: string;
  lpDirectory: string | null;
  nShow: number;
  hInstApp: number | bigint;
  lpIDList: null;
  lpClass: null;
  hkeyClass: null;
  dwHotKey: number;
  hIconOrMonitor: null;
  hProcess: number | bigint;
}

let structDeclared = false;
function declareShellExecuteInfo(): void {
  if (structDeclared) return;
  const koffi = loadKoffi();
  koffi.struct('SHELLEXECUTEINFOW', {
    cbSize: 'uint32_t',
    fMask: 'uint32_t',
    hwnd: 'void *',
    lpVerb: 'str16',
    lpFile: 'str16',
    lpParameters: 'str16',
    lpDirectory: 'str16',
    nShow: 'int',
    hInstApp: 'uint64_t',
    lpIDList: 'void *',
    lpClass: 'str16',
    hkeyClass: 'void *',
    dwHotKey: 'uint32_t',
    hIconOrMonitor: 'void *',
    hProcess: 'uint64_t',
  });
  structDeclared = true;
}

const shellExecuteExW = fn('bool ShellExecuteExW(_Inout_ SHELLEXECUTEINFOW *info)');
const isUserAnAdminFn = fn('bool IsUserAnAdmin()');

const SEE_MASK_NOCLOSEPROCESS = 0x40;
const SEE_MASK_NOASYNC = 0x100;
/** No error dialog of the shell's own: the caller shows the error. */
const SEE_MASK_FLAG_NO_UI = 0x400;
const SW_HIDE = 0;
const SHELLEXECUTEINFOW_BYTES = 112;

/**
 * Starts `file` with `parameters` through the shell with `verb` ("runas": elevated, after the UAC
 * prompt). Returns the process handle, which the caller owns and closes in `finally`. Throws
 * Win32Error (1223 ERROR_CANCELLED when the user declined the prompt). Synchronous: GetLastError has
 * to be read on the calling thread, and the call returns only once the prompt is answered.
 */
export function shellExecute(verb: string, file: string, parameters: string): ProcessHandle {
  declareShellExecuteInfo();
  const info: ShellExecuteInfo = {
    cbSize: SHELLEXECUTEINFOW_BYTES,
    fMask: SEE_MASK_NOCLOSEPROCESS | SEE_MASK_NOASYNC | SEE_MASK_FLAG_NO_UI,
    hwnd: null,
    lpVerb: verb,
    lpFile: file,
    lpParameters: parameters,
    lpDirectory: null,
    nShow: SW_HIDE,
    hInstApp: 0,
    lpIDList: null,
    lpClass: null,
    hkeyClass: null,
    dwHotKey: 0,
    hIconOrMonitor: null,
    hProcess: 0,
  };
  if (!shellExecuteExW()(info)) throw new Win32Error('ShellExecuteExW', lastError());
  const handle = BigInt(info.hProcess ?? 0);
  // NOCLOSEPROCESS gives no handle when the shell handed the file to a running program (DDE); not for an .exe.
  if (handle === 0n) throw new Error('ShellExecuteExW started the program but returned no process handle');
  return handle as ProcessHandle;
}

/** Whether this process runs with an administrator token (elevated, or UAC off). */
export function isUserAnAdmin(): boolean {
  return Boolean(isUserAnAdminFn()());
}

export function shellExecuteInfoSize(): number {
  declareShellExecuteInfo();
  return loadKoffi().sizeof('SHELLEXECUTEINFOW');
}
