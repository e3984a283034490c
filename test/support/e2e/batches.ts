import { expect, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import { startBrowserHost } from '@main/browser-host';
import { KeytarCredentialStore } from '@main/connections/keychain';
import { createFileLogger, Redactor } from '@main/logging';
import type { ProtocolRequest } from '@shared/api';
import { protocolFor, serverOrdersBySourceId } from '@test/support/bulk';
import type { TestSandbox } from '@test/support/sandbox';
import { expectConnected, expectFirstRunConnect, fillPartnerForm, partnerForm } from './app';
import type { BrowserHost } from './fixtures';
import { openProtocols, protocolsUi } from './protocols';
import { BRIDGE_FILE, RENDERER_DIR } from './paths';

/** Connects the app to the partner sandbox through the Connect screen. */
export async function connectPartner(app: Page, sandbox: TestSandbox): Promise<void> {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, sandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');
}

/**
 * `n` complete protocols for patients `${tag}-0`..., drafted as the editor would (the list hears
 * of them and they are sent to the server); their local ids.
 */
export function seedProtocols(host: BrowserHost, n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) => seedProtocol(host, protocolFor(`${tag}-${i}`)));
}

/** One protocol drafted as the editor would; its local id. */
export function seedProtocol(host: BrowserHost, draft: ProtocolRequest): string {
  return host.core.session!.protocols.create(draft).localId;
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
  // The shortcut works once the app is up (after a reload it may still be starting).
  await expect(app.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await app.keyboard.press('Control+3');
  await expect(app.getByRole('heading', { level: 1, name: 'Batches' })).toBeVisible();
  await app.getByRole('link', { name: title }).first().click();
}

/** The run view says the batch finished. */
export async function expectBatchFinished(app: Page, timeout = 90_000): Promise<void> {
  await expect(app.locator('.batch-status [role="status"]')).toHaveText(/^Finished/, { timeout });
}

/** The hash route the page is on ("/batches/review"). */
export const route = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { location: { hash: string } }).location.hash.slice(1),
  );

/** From anywhere: the protocol list, select all `n`, and "Review batch (n)". */
export async function chooseAllForReview(app: Page, n: number): Promise<void> {
  await openProtocols(app);
  const selection = protocolsUi.selection(app);
  await selection.getByRole('button', { name: `Select all ${n}` }).click();
  await selection.getByRole('button', { name: `Review batch (${n})` }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Review the batch' })).toBeVisible();
}

/** On the review: submit the included protocols, confirm, and answer the new batch's id. */
export async function submitFromReview(app: Page, n: number): Promise<string> {
  await expect(app.getByTestId('review-included')).toHaveText(String(n), { timeout: 20_000 });
  const orders = n === 1 ? '1 order' : `${n} orders`;
  await app.getByRole('button', { name: `Submit ${orders}…` }).click();
  const dialog = app.getByRole('dialog', { name: `Send ${orders}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: `Send ${orders}` }).click();
  // A batch of one protocol is one order, named after its patient.
  const title = n === 1 ? /^Order for / : /^Batch of /;
  await expect(app.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const hash = await route(app);
  const id = /^\/batches\/([0-9a-f-]{36})$/.exec(hash)?.[1];
  if (!id) throw new Error(`not on a run view: ${hash}`);
  return id;
}

/** Presses Tab until `target` has the focus (a keyboard user's way there); fails after `max`. */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (
      await target.evaluate(
        (el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement,
      )
    )
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${max} presses`);
}
