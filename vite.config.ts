// Builds the renderer (renderer/index.html) into dist/renderer, served by `holdwatch ui` and loaded by Electron.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // No inline scripts or eval: the strict CSP (script-src 'self') must hold.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
  },
});
