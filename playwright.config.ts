import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests: the real renderer in Debian's Chromium, served by the browser host (the
 * main-process services in plain Node) against real sandboxes on 127.0.0.1. Playwright never
 * downloads a browser here: it drives /usr/bin/chromium. Run under a real keychain:
 *
 *   npm run test:e2e   (builds, then dbus-run-session -- bash scripts/with-keyring.sh playwright test)
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './test/support/e2e/global-setup.ts',
  // Two cores shared with other work: one browser at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./test/support/e2e/summary-reporter.ts']],
  use: {
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
      },
    },
  ],
});
