// The tiers, each a vitest project: `npm run test:unit` runs the first alone (no build, seconds);
// `npm test` runs them all, as CI does.
//   unit         co-located *.test.ts and tests/lint: pure code, or /proc and small real processes
//   integration  tests/{integration,e2e,probes} and co-located *.integration.test.ts: the built CLI,
//                real runners (pytest, bats, go, node), Chromium for the HTML report
//   ui           tests/ui: the built renderer in Chromium through holdwatch ui, and the hosts behind it
//   security     tests/security: `holdwatch ui` and the data it keeps, attacked by a local peer
//   faults       tests/faults: `run` with a full disk, a dead scan worker, huge or unread output
//   wine         tests/wine: the win32 backend with Windows node.exe, under Wine; on Windows natively
//                (tests/wine/host.ts picks; `npm run test:windows` is this project)
//   determinism  tests/determinism: the same verdict N of N times while busy processes load both CPUs;
//                run after the others (groupOrder), so its load slows no other test
import { defineConfig } from 'vitest/config';

const BUILT = ['tests/support/build-once.ts'];

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'dist/**'],
    // Integration tests start real processes; two cores, so keep files from starving each other.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{contract,core,native,host,cli,electron,renderer,bench}/**/*.test.ts', 'tests/lint/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', 'node_modules/**', 'dist/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/{integration,e2e,probes,corpus}/**/*.test.ts', '{contract,core,native,host,cli,electron,renderer,bench}/**/*.integration.test.ts'],
          globalSetup: BUILT,
        },
      },
      {
        extends: true,
        test: { name: 'ui', include: ['tests/ui/**/*.test.ts'], globalSetup: ['tests/support/build-once.ts', 'tests/support/build-renderer.ts'] },
      },
      {
        extends: true,
        test: { name: 'security', include: ['tests/security/**/*.test.ts'], globalSetup: ['tests/support/build-once.ts', 'tests/support/build-renderer.ts'] },
      },
      { extends: true, test: { name: 'faults', include: ['tests/faults/**/*.test.ts'], globalSetup: BUILT } },
      { extends: true, test: { name: 'wine', include: ['tests/wine/**/*.test.ts'], globalSetup: BUILT } },
      { extends: true, test: { name: 'determinism', include: ['tests/determinism/**/*.test.ts'], globalSetup: BUILT, sequence: { groupOrder: 1 } } },
    ],
  },
});
