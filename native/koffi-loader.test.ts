import { describe, expect, it } from 'vitest';
import { nodeModulesDirs } from './koffi-loader.js';

describe('nodeModulesDirs', () => {
  it("lists where Node looks for a package, from a file's dir up, never inside a node_modules twice", () => {
    expect(nodeModulesDirs('/app/node_modules/.pnpm/koffi@3/node_modules/koffi')).toEqual([
      '/app/node_modules/.pnpm/koffi@3/node_modules/koffi/node_modules',
      '/app/node_modules/.pnpm/koffi@3/node_modules',
      '/app/node_modules/.pnpm/node_modules',
      '/app/node_modules',
      '/node_modules',
    ]);
  });
});
