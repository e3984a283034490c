import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  chooseAllForReview,
  connectPartner,
  expectBatchFinished,
  runCount,
  seedProtocol,
} from '@test/support/e2e/batches';
import { ui } from '@test/support/e2e/app';
import { editor, goTo, orderDialog } from '@test/support/e2e/editor';
import { saveScreen } from '@test/support/e2e/screens';
import { clearFaults, protocolFor } from '@test/support/bulk';
import { listAllOrders } from '@test/support/sandbox-orders';
import type { TestSandbox } from '@test/support/sandbox';
import { centsToMoney, moneyToCents } from '@shared/money';
import { priceOrder } from '@shared/pricing';
import { SYNC_KEYS } from '@main/db';

test.describe.configure({ timeout: 120_000 });

/** The amount in a text on screen ("$1,234.50 (estimate)") as the API writes it: "1234.50". */
const amount = (text: string | null): string => {
  const money = /\$([\d,]+\.\d{2})/.exec(text ?? '')?.[1];
  if (!money) throw new Error(`no amount on screen: ${text}`);
  return money.replace(/,/g, '');
};
const shown = async (page: Page, testId: string) =>
  amount(await page.getByTestId(testId).textContent());

/** The server's total of the one order it holds for this patient. */
async function chargedTo(sandbox: TestSandbox, sourceId: string): Promise<string> {
  const orders = (await listAllOrders(sandbox)).filter((o) => o.customer.sourceId === sourceId);
  expect(orders, `orders of ${sourceId}`).toHaveLength(1);
  return orders[0]!.totalPrice;
}

// Long supplies, express shipping and both kinds of product: the partner discount, the volume
// discount and the handling fee all count, so a quote that leaves the discount out is far off.
const PRICE_A = protocolFor('PRICE-A', { daysSupply: 90, shippingMethod: 'EXPRESS' });
const PRICE_B = protocolFor('PRICE-B', { daysSupply: 60, shippingMethod: 'OVERNIGHT' });
const PRICE_C = protocolFor('PRICE-C', { daysSupply: 90, shippingMethod: 'EXPRESS' });

test('on a fresh connection with a partner discount, the review, the editor and Order now quote what the server charges, without opening Settings', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  // The sandbox's partner gives 15%. Nothing opens Settings in this test.
  await connectPartner(app, partnerSandbox);
  // Protocols drafted as the editor or a CSV import would, never opened in the editor.
  seedProtocol(host, PRICE_A);
  seedProtocol(host, PRICE_B);

  await chooseAllForReview(app, 2);
  await expect(app.getByTestId('review-total')).toHaveText(/^\$/, { timeout: 20_000 });
  await expect(app.locator('.review-total-unknown')).toHaveCount(0);
  const reviewTotal = await shown(app, 'review-total');
  const rows = app.getByRole('list', { name: 'Orders to send' });
  const rowQuote = async (sourceId: string) =>
    amount(
      await rows
        .getByRole('listitem')
        .filter({ hasText: sourceId })
        .locator('.review-estimate')
        .first()
        .textContent(),
    );
  const quoteA = await rowQuote('PRICE-A');
  const quoteB = await rowQuote('PRICE-B');
  await app.getByRole('button', { name: 'Submit 2 orders…' }).click();
  const confirm = app.getByRole('dialog', { name: 'Send 2 orders?' });
  await expect(confirm).toContainText(`for an estimated $${reviewTotal}`);
  await saveScreen(app, testInfo, 'pricing-review-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Send 2 orders' }).click();
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('2');
  const chargedA = await chargedTo(partnerSandbox, 'PRICE-A');
  const chargedB = await chargedTo(partnerSandbox, 'PRICE-B');
  expect([quoteA, quoteB]).toEqual([chargedA, chargedB]);
  expect(centsToMoney(moneyToCents(chargedA) + moneyToCents(chargedB))).toBe(reviewTotal);

  // Order now from the editor: the preview, the confirmation and the server agree to the cent.
  const localId = seedProtocol(host, PRICE_C);
  await goTo(app, `#/protocols/${localId}`);
  await expect(app.getByRole('heading', { level: 1, name: /PRICE-C/ })).toBeVisible();
  await expect(editor.total(app)).toHaveText(/^\$/);
  const previewTotal = await shown(app, 'price-total');
  await app.getByRole('button', { name: 'Order now' }).click();
  const dialog = orderDialog(app);
  await expect(dialog.getByTestId('confirm-total')).toHaveText(`$${previewTotal}`);
  await expect(dialog.getByTestId('confirm-total-unknown')).toHaveCount(0);
  await saveScreen(app, testInfo, 'pricing-order-now-confirm', { fullPage: false });
  await dialog.getByRole('button', { name: 'Send 1 order' }).click();
  await expect(app.locator('.order-progress')).toHaveAttribute('data-order', 'created', {
    timeout: 30_000,
  });
  expect(await chargedTo(partnerSandbox, 'PRICE-C')).toBe(previewTotal);

  // The same order without the partner discount: what the review used to quote.
  const catalog = (await partnerSandbox.api('GET', '/v1/products?limit=100')).body.products as {
    id: number;
    price: string;
    external: boolean;
  }[];
  const lines = PRICE_C.lineItems.map((li) => {
    const p = catalog.find((c) => c.id === li.productId)!;
    return { quantity: li.quantity, price: p.price, external: p.external };
  });
  const undiscounted = priceOrder({ ...PRICE_C, discountValue: null, lineItems: lines });
  expect(undiscounted.totalPrice).not.toBe(previewTotal);
  expect(priceOrder({ ...PRICE_C, discountValue: 0.15, lineItems: lines }).totalPrice).toBe(
    previewTotal,
  );
});

test('while the partner settings cannot be read, the editor and the confirmation say the total is unknown, not a total without the discount', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  await connectPartner(app, partnerSandbox);
  // As if they were never read on this connection, and the server fails to answer them now.
  const faults = await partnerSandbox.api('PUT', '/_sandbox/faults', {
    errorRate: 1,
    errorStatus: 500,
    match: { method: 'GET', path: '/v1/partners/settings' },
  });
  expect(faults.status).toBe(200);
  host.core.store.syncState.delete(SYNC_KEYS.partnerPricing);
  const localId = seedProtocol(host, protocolFor('PRICE-UNKNOWN'));
  const unknown = "Total unknown until the partner's discount can be read.";

  // The batch review: no total, and why.
  await chooseAllForReview(app, 1);
  await expect(app.getByTestId('review-total')).toHaveText('Unknown', { timeout: 20_000 });
  await expect(app.locator('.review-total-unknown')).toHaveText(unknown);
  await app.getByRole('button', { name: 'Submit 1 order…' }).click();
  await expect(orderDialog(app).getByTestId('confirm-total-unknown')).toHaveText(unknown);
  await saveScreen(app, testInfo, 'review-total-unknown', { fullPage: false });
  await orderDialog(app).getByRole('button', { name: 'Cancel' }).click();

  // The editor and Order now's confirmation.
  await goTo(app, `#/protocols/${localId}`);
  await expect(editor.total(app)).toHaveText('Unknown', { timeout: 20_000 });
  await expect(editor.preview(app)).toContainText(unknown);
  // No line total either: it would be the price without the discount.
  await expect(app.getByLabel(/^Line total for /)).toHaveCount(0);
  await saveScreen(app, testInfo, 'editor-total-unknown');
  await app.getByRole('button', { name: 'Order now' }).click();
  const dialog = orderDialog(app);
  await expect(dialog.getByTestId('confirm-total')).toHaveText('Unknown', { timeout: 20_000 });
  await expect(dialog.getByTestId('confirm-total-unknown')).toHaveText(unknown);
  await expect(dialog).toContainText('One order is created on Clinic test server.');
  await saveScreen(app, testInfo, 'order-now-confirm-total-unknown', { fullPage: false });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Readable again: the next sync reads them, and the editor shows the total.
  await clearFaults(partnerSandbox);
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  await expect(editor.total(app)).toHaveText(/^\$\d+\.\d{2}$/, { timeout: 20_000 });
  await expect(editor.preview(app)).not.toContainText(unknown);
});
