import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost } from '@main/browser-host';
import { KeytarCredentialStore } from '@main/connections/keychain';
import { createFileLogger, Redactor } from '@main/logging';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { BRIDGE_FILE, RENDERER_DIR } from './paths';

export type BrowserHost = Awaited<ReturnType<typeof startBrowserHost>>;

export interface E2eFixtures {
  /** A fresh, empty data directory for this test (removed afterwards). */
  dataDir: string;
  /** The keychain service this test's host keeps its secrets under (one per test, so none leak). */
  keychainService: string;
  /** A browser host on a free port over `dataDir`, with its own embedded sandbox database. */
  host: BrowserHost;
  /** The page, opened at the host's URL (with its per-launch token). */
  app: Page;
  /** A separate, real sandbox on 127.0.0.1: the "partner sandbox" a user connects to. */
  partnerSandbox: TestSandbox;
  /**
   * On for every test: an uncaught error or a `console.error` in any page of the test fails it
   * (a console full of errors is a failing app). A test that provokes one on purpose (a request
   * the server refuses, which Chromium logs) names it with `allow`.
   */
  pageErrors: { allow(pattern: RegExp): void };
}

/**
 * Errors every test may meet: the sandbox's catalog names its product images on a host of the
 * reserved .invalid domain, which never resolves, so the catalog shows its "No image" placeholder
 * (ProductImage) after Chromium logs the failed load. Nothing else is allowed without a test
 * saying so.
 */
const EXPECTED_EVERYWHERE = [
  /^console\.error: Failed to load resource: net::ERR_NAME_NOT_RESOLVED \(https:\/\/images\.sandbox\.orderdesk\.invalid\//,
];

/**
 * What Chromium logs while the browser host is down or stopping (a test that stops or restarts
 * it): the bridge's socket and its token check refused, reset or answered with nothing, on the
 * host's loopback address only.
 */
export const HOST_DOWN = [
  /^console\.error: WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/[^']*' failed: /,
  /^console\.error: Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|CONNECTION_CLOSED) \(http:\/\/127\.0\.0\.1:\d+\/__order-desk\/token-check/,
  // The app fetches every screen's code and style once it is up; a fetch the stopped host refuses.
  /^console\.error: Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|CONNECTION_CLOSED) \(http:\/\/127\.0\.0\.1:\d+\/assets\/[\w-]+\.(js|css)\)$/,
];

/** Collects the uncaught errors and console errors of every page the context opens. */
function watchPages(context: BrowserContext, seen: string[]): void {
  const watch = (page: Page) => {
    page.on('pageerror', (error) => seen.push(`uncaught ${error.name}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const where = message.location().url ? ` (${message.location().url})` : '';
      seen.push(`console.error: ${message.text()}${where}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

export const test = base.extend<E2eFixtures>({
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'order-desk-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },

  // eslint-disable-next-line no-empty-pattern
  keychainService: async ({}, use) => {
    await use(`Order Desk e2e ${randomBytes(4).toString('hex')}`);
  },

  host: async ({ dataDir, keychainService, context }, use, testInfo) => {
    const redactor = new Redactor();
    const logDir = join(dataDir, 'logs');
    const log = createFileLogger({ dir: logDir, redactor, level: 'debug' });
    const host = await startBrowserHost({
      rendererDir: RENDERER_DIR,
      bridgeFile: BRIDGE_FILE,
      dataDir,
      credentials: new KeytarCredentialStore(keychainService),
      log,
      redactor,
    });
    try {
      await use(host);
    } finally {
      // The test is over: its pages close before the host stops, or a page still open would try
      // to reach the stopped host and log that as errors after the test.
      for (const page of context.pages()) await page.close();
      await host.close();
      await log.close();
      const logFile = join(logDir, 'main.log');
      if (testInfo.status !== testInfo.expectedStatus && existsSync(logFile))
        await testInfo.attach('main.log', {
          body: readFileSync(logFile),
          contentType: 'text/plain',
        });
    }
  },

  pageErrors: [
    async ({ context }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [...EXPECTED_EVERYWHERE];
      watchPages(context, seen);
      await use({ allow: (pattern) => allowed.push(pattern) });
      const unexpected = seen.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      expect(unexpected, 'errors in the page (uncaught, or logged with console.error)').toEqual([]);
    },
    { auto: true },
  ],

  app: async ({ host, page }, use) => {
    await page.goto(host.url);
    await use(page);
  },

  // eslint-disable-next-line no-empty-pattern
  partnerSandbox: async ({}, use) => {
    const sandbox = await startTestSandbox();
    try {
      await use(sandbox);
    } finally {
      await sandbox.close();
    }
  },
});

export { expect };
