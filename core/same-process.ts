// Is the process behind a pid still the one seen before? A pid alone says nothing: with pid_max 32768 a
// test suite wraps pids within minutes. The start time decides. Windows gives every process the same
// exact creation time (FILETIME), so it must match exactly. Linux's comes from clock ticks since boot
// plus a boot time each holdwatch process estimates from /proc/uptime (10 ms steps), so two holdwatch
// processes may differ by a few ms; a reused pid cannot start within 50 ms of the first (the pid space
// would have to wrap in that time).
export const LINUX_START_TOLERANCE_MS = 50;

export function sameProcessStart(seenMs: number, nowMs: number, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? seenMs === nowMs : Math.abs(seenMs - nowMs) <= LINUX_START_TOLERANCE_MS;
}
