import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../core/errors.js';
import { formatNtStatus, NtStatusError, ntSuccess, Win32Error } from './win-errors.js';
import { fileTimeToUnixMs } from './win-types.js';

describe('Windows error formatting', () => {
  it('prints NTSTATUS in hex, also when koffi hands it over as a negative int32', () => {
    expect(formatNtStatus(0xc0000004)).toBe('0xC0000004');
    expect(formatNtStatus(-1073741820)).toBe('0xC0000004');
    expect(formatNtStatus(0)).toBe('0x00000000');
    const error = new NtStatusError('NtQuerySystemInformation', -1073741790);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.status).toBe(0xc0000022);
    expect(error.code).toBe('0xC0000022');
    expect(error.message).toBe('NtQuerySystemInformation failed: 0xC0000022 STATUS_ACCESS_DENIED');
  });

  it('prints Win32 errors by number and name', () => {
    const error = new Win32Error('OpenProcess', 5);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toBe('OpenProcess failed: error 5 ERROR_ACCESS_DENIED');
    expect(new Win32Error('X', 1234).message).toBe('X failed: error 1234');
  });

  it('tells success and informational statuses from warnings and errors', () => {
    expect(ntSuccess(0)).toBe(true);
    expect(ntSuccess(0x40000000)).toBe(true);
    expect(ntSuccess(0x80000005)).toBe(false);
    expect(ntSuccess(-1073741820)).toBe(false);
  });

  it('turns FILETIME ticks into Unix milliseconds', () => {
    expect(fileTimeToUnixMs(116444736000000000n)).toBe(0);
    expect(fileTimeToUnixMs(133_000_000_000_000_000n)).toBe(1_655_526_400_000);
  });
});
