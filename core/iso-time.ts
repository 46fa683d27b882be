// A moment in ms as Date#toISOString spells it. A 100,000-test record spells 800,000 moments (each
// test's start, end and phases), nearly all in a second met just before: the second's text is kept
// and only the milliseconds are written, at a fifteenth of a Date's cost. Most are in the very
// millisecond met just before (a short test's phases): that text is kept too, and shared, not made again.

/** Past year 9999 (and before 1970) toISOString's layout changes: those go through Date. */
const LAST_PLAIN_MS = 253_402_300_800_000;

let keptSecond = Number.NaN;
let keptText = '';
let keptMs = Number.NaN;
let keptIso = '';

export function isoOfMs(ms: number): string {
  if (!(ms >= 0 && ms < LAST_PLAIN_MS)) return new Date(ms).toISOString();
  // A Date keeps whole milliseconds, truncated.
  const whole = Math.trunc(ms);
  if (whole === keptMs) return keptIso;
  const second = Math.floor(whole / 1000);
  if (second !== keptSecond) {
    keptText = new Date(second * 1000).toISOString().slice(0, 20); // "YYYY-MM-DDTHH:MM:SS."
    keptSecond = second;
  }
  keptMs = whole;
  keptIso = `${keptText}${String(whole - second * 1000).padStart(3, '0')}Z`;
  return keptIso;
}
