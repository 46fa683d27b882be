// A process that exists but has not finished starting. Wine answers its CreateTime (GetProcessTimes
// and SystemProcessInformation alike) with the fill pattern 0x5555555555555555 and has no image name
// for it, for up to a second under load, and the process list may keep the pattern a while after
// GetProcessTimes gives the real time. A pid with that time has no identity yet: ask again next poll.
// (Windows sets CreateTime in NtCreateUserProcess, before the pid is visible.)
export const UNSTARTED_CREATE_TIME = 0x5555555555555555n;

export function isStarting(createTime: bigint): boolean {
  return createTime === UNSTARTED_CREATE_TIME;
}
