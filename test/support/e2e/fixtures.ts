import { test as base, expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost } from '../../../src/main/browser-host';
import { KeytarCredentialStore } from '../../../src/main/connections/keychain';
import { createFileLogger, Redactor } from '../../../src/main/logging';
import { startTestSandbox, type TestSandbox } from '../sandbox';
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

  host: async ({ dataDir, keychainService }, use, testInfo) => {
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
