import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import { viteAliases } from './path-aliases';

export default defineConfig({
  main: {
    resolve: { alias: viteAliases },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // A worker thread's script of its own, beside index.js (store/encrypt-file.ts).
          'encrypt-worker': resolve(__dirname, 'src/main/db/encrypt-worker.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias: viteAliases },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require modules: one self-contained CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    resolve: { alias: viteAliases },
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
