// The case's own config, so vitest does not look for one above the case folder.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['tests/**/*.test.js'] },
});
