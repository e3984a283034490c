import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { viteAliases } from './path-aliases';

export default defineConfig({
  resolve: { alias: viteAliases },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // One run, one summary line: the reporters count the tests of every project below.
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'test/unit/**/*.test.ts',
            'test/integration/**/*.test.ts',
            'test/keychain/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        // The renderer's components in a DOM (jsdom), talking to a fake window.orderDesk.
        extends: true,
        plugins: [react()],
        test: {
          name: 'component',
          include: ['test/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['./test/support/component/setup.ts'],
        },
      },
    ],
  },
});
