// PS_PROTECTION bytes as Windows 10/11 give them for the processes a scan meets (Wine answers no
// class 61): Defender's MsMpEng 0x31, csrss/services 0x61, smss 0x62, System 0x72.
import { describe, expect, it } from 'vitest';
import { decodeProtection, protectedReason, protectionOf } from './protection.js';

describe('decodeProtection', () => {
  it.each([
    [0x31, 'Antimalware, light'],
    [0x61, 'WinTcb, light'],
    [0x62, 'WinTcb'],
    [0x72, 'WinSystem'],
    [0x41, 'Lsa, light'],
    [0xf1, 'signer 15, light'],
    [0x00, null],
    [0x08, null], // the audit bit alone protects nothing
    [0x33, null], // type 3 is not defined
  ])('0x%s', (level, label) => {
    expect(decodeProtection(level)).toBe(label);
  });
});

describe('protectionOf', () => {
  it('trusts the byte when the OS gave one, else knows the processes Windows always protects', () => {
    expect(protectionOf(0x31, 3120, 'MsMpEng.exe')).toBe('Antimalware, light');
    expect(protectionOf(0x00, 3120, 'MsMpEng.exe')).toBeNull(); // Defender's protection off (a dev box)
    expect(protectionOf(null, 4, '')).toBe('WinSystem');
    expect(protectionOf(null, 3120, 'MSMPENG.EXE')).toBe('Antimalware, light');
    expect(protectionOf(null, 612, 'csrss.exe')).toBe('WinTcb, light');
    expect(protectionOf(null, 7000, 'node.exe')).toBeNull();
  });

  it('says elevation will not help', () => {
    expect(protectedReason('Antimalware, light')).toBe('protected process (Antimalware, light): Windows lets no scan open it, elevated or not');
  });
});
