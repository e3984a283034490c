import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { viteAliases } from './path-aliases';

/**
 * The browser host's bridge (src/preload/browser.ts) as one self-contained classic script:
 * out/browser/bridge.js, injected by the host into index.html before the renderer.
 */
export default defineConfig({
  publicDir: false,
  resolve: { alias: viteAliases },
  build: {
    outDir: resolve(import.meta.dirname, 'out/browser'),
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: resolve(import.meta.dirname, 'src/preload/browser.ts'),
      formats: ['iife'],
      name: 'OrderDeskBrowserBridge',
      fileName: () => 'bridge.js',
    },
  },
});
