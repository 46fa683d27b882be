import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    // Integration tests start real processes; two cores, so keep files from starving each other.
    maxWorkers: 2,
    globalSetup: ['tests/support/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
