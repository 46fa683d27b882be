// Bundles Electron's preload into one CommonJS file: a sandboxed preload can require only 'electron'
// (and a few Node built-ins), never a file of ours, so the contract it imports is inlined.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/electron',
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    lib: { entry: 'electron/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
