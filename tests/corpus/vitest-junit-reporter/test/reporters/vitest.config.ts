// Vitest's test/reporters/vitest.config.ts (MIT, vitest-dev/vitest) at 199776767a10, as it was.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: ['node_modules', 'fixtures', 'dist'],
    testTimeout: 100000,
  },
});
