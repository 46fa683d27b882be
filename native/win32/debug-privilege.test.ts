// The token bytes and AdjustTokenPrivileges' two kinds of TRUE, as Windows gives them: an elevated
// token holds SeDebugPrivilege disabled (LUID 20), a standard user's token does not hold it at all.
import { describe, expect, it } from 'vitest';
import { adjustOutcome, enabledIn, enablingState, ERROR_NOT_ALL_ASSIGNED } from './debug-privilege.js';
import { Win32Error } from './win-errors.js';

const SE_DEBUG_LUID = Buffer.from([20, 0, 0, 0, 0, 0, 0, 0]);
const SE_CHANGE_NOTIFY_LUID = Buffer.from([23, 0, 0, 0, 0, 0, 0, 0]);

/** TOKEN_PRIVILEGES as GetTokenInformation(TokenPrivileges) fills it. */
function tokenPrivileges(...entries: [luid: Buffer, attributes: number][]): Buffer {
  const buffer = Buffer.alloc(4 + entries.length * 12);
  buffer.writeUInt32LE(entries.length, 0);
  entries.forEach(([luid, attributes], i) => {
    luid.copy(buffer, 4 + i * 12);
    buffer.writeUInt32LE(attributes, 4 + i * 12 + 8);
  });
  return buffer;
}

describe('SeDebugPrivilege', () => {
  it('asks for one privilege, enabled: count 1, the LUID, SE_PRIVILEGE_ENABLED', () => {
    expect([...enablingState(SE_DEBUG_LUID)]).toEqual([1, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
  });

  it('TRUE with ERROR_NOT_ALL_ASSIGNED is a token without the privilege (a standard user), not success', () => {
    expect(adjustOutcome(true, ERROR_NOT_ALL_ASSIGNED)).toBe('not held');
    expect(adjustOutcome(true, 0)).toBe('enabled');
    expect(() => adjustOutcome(false, 5)).toThrow(Win32Error);
  });

  it('reads the enabled bit of its own LUID among the others', () => {
    const elevated = tokenPrivileges([SE_CHANGE_NOTIFY_LUID, 3], [SE_DEBUG_LUID, 0]);
    expect(enabledIn(elevated, SE_DEBUG_LUID)).toBe(false); // held, off until adjusted
    expect(enabledIn(tokenPrivileges([SE_CHANGE_NOTIFY_LUID, 3], [SE_DEBUG_LUID, 2]), SE_DEBUG_LUID)).toBe(true);
    expect(enabledIn(tokenPrivileges([SE_CHANGE_NOTIFY_LUID, 3]), SE_DEBUG_LUID)).toBe(false); // a standard user's token
  });
});
