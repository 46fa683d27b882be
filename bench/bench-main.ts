// A bench's entry: a crash says so in one line and fails the process; a MISS does not (claims, not assertions).

export function runBenchMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(`bench crashed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
