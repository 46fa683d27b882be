// The app's own argv when "Scan as administrator" starts it as the scanner worker.
/** `... scan-worker --pipe <p> --token <t> --host-pid <n>` in the app's own argv, or null for the app itself. */
export function scanWorkerArguments(argv: readonly string[]): { pipe?: string; token?: string; hostPid?: string } | null {
  const at = argv.indexOf('scan-worker');
  if (at < 0) return null;
  const valueOf = (flag: string) => {
    const i = argv.indexOf(flag, at);
    return i > 0 ? argv[i + 1] : undefined;
  };
  const hostPid = valueOf('--host-pid');
  return { pipe: valueOf('--pipe'), token: valueOf('--token'), ...(hostPid === undefined ? {} : { hostPid }) };
}
