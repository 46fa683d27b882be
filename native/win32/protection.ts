// Protected processes (Defender's MsMpEng, csrss, services, the System process...) refuse handle-level
// access to everyone, elevated or not, SeDebugPrivilege or not: telling the user to "run as
// administrator" for them is a promise holdwatch cannot keep. Each is classified by its PS_PROTECTION
// byte (NtQueryInformationProcess class 61, which PROCESS_QUERY_LIMITED_INFORMATION may ask): Type in
// bits 0-2 (1 light, 2 full), Signer in bits 4-7. Where the byte cannot be read (Wine; older Windows),
// the processes Windows always protects are known by name. Pure: the byte and the name in.

const SIGNERS = ['', 'Authenticode', 'CodeGen', 'Antimalware', 'Lsa', 'Windows', 'WinTcb', 'WinSystem', 'App'];

/** The protection `level` describes ("Antimalware, light"), or null when the process is not protected. */
export function decodeProtection(level: number): string | null {
  const type = level & 0x7;
  if (type !== 1 && type !== 2) return null;
  const signer = SIGNERS[(level >> 4) & 0xf] || `signer ${(level >> 4) & 0xf}`;
  return `${signer}${type === 1 ? ', light' : ''}`;
}

/** Processes Windows protects on every machine it runs, by image name, for when the byte is unknown. */
const ALWAYS_PROTECTED: Readonly<Record<string, string>> = {
  system: 'WinSystem',
  registry: 'WinSystem',
  'secure system': 'WinSystem',
  'memory compression': 'WinSystem',
  'smss.exe': 'WinTcb',
  'csrss.exe': 'WinTcb, light',
  'wininit.exe': 'WinTcb, light',
  'services.exe': 'WinTcb, light',
  'msmpeng.exe': 'Antimalware, light',
  'nissrv.exe': 'Antimalware, light',
  'mssense.exe': 'Antimalware, light',
};

/** How process `pid` is protected, or null: its PS_PROTECTION byte when known, else its name. */
export function protectionOf(level: number | null, pid: number, imageName: string): string | null {
  if (level !== null) return decodeProtection(level);
  if (pid === 4) return 'WinSystem';
  return ALWAYS_PROTECTED[imageName.toLowerCase()] ?? null;
}

/** The denied reason for a protected process: why, and that elevation will not help. */
export function protectedReason(protection: string): string {
  return `protected process (${protection}): Windows lets no scan open it, elevated or not`;
}
