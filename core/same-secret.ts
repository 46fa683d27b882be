// Whether a token a peer gave is the one expected, in a time that does not depend on where the first
// difference lies: every byte is compared, with no early exit, as node:crypto's timingSafeEqual does.
// Every token a peer shows (the UI server's page, a run's probes, the elevated scanner worker) is
// checked here; a run's boundary server would otherwise load node:crypto for one compare per probe,
// which cost the run's main thread more than its whole scan of the command's processes.
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
