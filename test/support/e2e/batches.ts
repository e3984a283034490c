import { expect, type Page } from '@playwright/test';
import { join } from 'node:path';
import { startBrowserHost } from '../../../src/main/browser-host';
import { KeytarCredentialStore } from '../../../src/main/connections/keychain';
import { createFileLogger, Redactor } from '../../../src/main/logging';
import { createLocalProtocols, serverOrdersBySourceId } from '../bulk';
import type { TestSandbox } from '../sandbox';
import { expectConnected, expectFirstRunConnect, fillPartnerForm, partnerForm } from './app';
import type { BrowserHost } from './fixtures';
import { BRIDGE_FILE, RENDERER_DIR } from './paths';

/** Connects the app to the partner sandbox through the Connect screen. */
export async function connectPartner(app: Page, sandbox: TestSandbox): Promise<void> {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, sandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');
}

/** `n` complete local protocols for patients `${tag}-0`...; their local ids. */
export function seedProtocols(host: BrowserHost, n: number, tag: string): string[] {
  return createLocalProtocols(host.core.store, n, tag);
}

/** Faults on the partner sandbox's order creates (PUT /_sandbox/faults). */
export async function injectOrderFaults(
  sandbox: TestSandbox,
  faults: {
    latencyMs?: number;
    errorRate?: number;
    dropResponseRate?: number;
    count?: number | null;
  },
): Promise<void> {
  const res = await sandbox.api('PUT', '/_sandbox/faults', {
    errorStatus: 503,
    ...faults,
    match: { method: 'POST', path: '/v1/orders' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The sandbox holds exactly one order for each of the patients `${tag}-0`...`${tag}-${n - 1}`. */
export async function expectOneServerOrderEach(
  sandbox: TestSandbox,
  tag: string,
  n: number,
): Promise<string[]> {
  const orders = await serverOrdersBySourceId(sandbox, `${tag}-`);
  const expected = Array.from({ length: n }, (_, i) => `${tag}-${i}`).sort();
  expect([...orders.keys()].sort()).toEqual(expected);
  for (const [sourceId, ids] of orders) expect(ids, `orders of ${sourceId}`).toHaveLength(1);
  return [...orders.values()].flat();
}

/** A second browser host over the same data directory and keychain: the app started again. */
export async function startHostAgain(
  dataDir: string,
  keychainService: string,
): Promise<{ host: BrowserHost; close(): Promise<void> }> {
  const redactor = new Redactor();
  const log = createFileLogger({ dir: join(dataDir, 'logs-2'), redactor, level: 'debug' });
  const host = await startBrowserHost({
    rendererDir: RENDERER_DIR,
    bridgeFile: BRIDGE_FILE,
    dataDir,
    credentials: new KeytarCredentialStore(keychainService),
    log,
    redactor,
  });
  return {
    host,
    close: async () => {
      await host.close();
      await log.close();
    },
  };
}

/** The run view's count of one state ("created", "rejected", "in-doubt", "total"...). */
export const runCount = (app: Page, key: string) => app.getByTestId(`count-${key}`).locator('dd');

/** Opens a batch's run view from the batches list (Ctrl+3, then its link). */
export async function openBatchFromList(app: Page, title: RegExp | string): Promise<void> {
  await app.keyboard.press('Control+3');
  await expect(app.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();
  await app.getByRole('link', { name: title }).first().click();
}

/** The run view says the batch finished. */
export async function expectBatchFinished(app: Page, timeout = 90_000): Promise<void> {
  await expect(app.locator('.batch-status [role="status"]')).toHaveText(/^Finished/, { timeout });
}
