import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import { connectLocalSandbox } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import {
  chooseAllForReview,
  expectBatchFinished,
  runCount,
  seedProtocol,
  seedProtocols,
  submitFromReview,
  tabTo,
} from '@test/support/e2e/batches';
import type { ProtocolRequest } from '@shared/api';
import { protocolFor } from '@test/support/bulk';
import { cancelOrder, embeddedControls, serverOrderCounts } from '@test/support/e2e/local-orders';
import { validOrderBody } from '@test/support/sandbox';
import { saveScreen } from '@test/support/e2e/screens';

test.describe.configure({ timeout: 120_000 });

const included = (page: Page) => page.getByRole('list', { name: 'Orders to send' });
const row = (page: Page, sourceId: string) =>
  included(page).getByRole('listitem').filter({ hasText: sourceId });
const dollars = (text: string) => Math.round(Number(text.replace(/[$,]/g, '')) * 100);

test('a named batch with a dropped protocol, expanded by keyboard: the dropped one is not sent, nothing else is lost, and the list shows its name and totals', async ({
  app: page,
  host,
}, testInfo) => {
  await connectLocalSandbox(page);
  const ids = seedProtocols(host, 3, 'brv');
  await chooseAllForReview(page, 3);
  await expect(page.getByTestId('review-included')).toHaveText('3', { timeout: 20_000 });

  // Keyboard only: expand brv-0 to its products and price.
  const expand = row(page, 'brv-0').getByRole('button', { name: /^Products and price of / });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await tabTo(page, expand);
  await page.keyboard.press('Enter');
  await expect(expand).toHaveAttribute('aria-expanded', 'true');
  const lines = row(page, 'brv-0').getByRole('table', { name: /^Products of the order for / });
  await expect(lines.getByRole('row')).not.toHaveCount(1); // a header and a row per product
  const lineCount = (await lines.getByRole('row').count()) - 1;
  expect(lineCount).toBeGreaterThan(0);
  // Its total is the row's price, and the price's parts are named.
  const rowPrice = await row(page, 'brv-0').locator('.review-estimate').first().innerText();
  const detailTotal = row(page, 'brv-0').locator('.review-price-total dd');
  await expect(detailTotal).toHaveText(rowPrice.trim());
  await expect(row(page, 'brv-0').getByText('Shipping', { exact: true })).toBeVisible();
  for (const price of await lines.locator('tbody td.num').allInnerTexts())
    expect(price).toMatch(/^\$\d/);
  await saveScreen(page, testInfo, 'batch-review-expanded');

  // Keyboard only: drop brv-1; the focus goes to its "Put back", and it leaves the total.
  const totalBefore = dollars(await page.getByTestId('review-total').innerText());
  const dropPrice = dollars(
    await row(page, 'brv-1').locator('.review-estimate').first().innerText(),
  );
  const drop = row(page, 'brv-1').getByRole('button', { name: /^Drop .* from the batch$/ });
  await tabTo(page, drop);
  await page.keyboard.press('Enter');
  const dropped = page.getByRole('region', { name: 'Dropped from this batch' });
  await expect(dropped.getByRole('button', { name: /^Put .* back in the batch$/ })).toBeFocused();
  await expect(page.getByTestId('review-included')).toHaveText('2');
  await expect(page.getByTestId('review-dropped')).toHaveText('1');
  await expect(row(page, 'brv-1')).toHaveCount(0);
  expect(dollars(await page.getByTestId('review-total').innerText())).toBe(totalBefore - dropPrice);

  // Put back and drop again: nothing is lost by changing one's mind.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('review-included')).toHaveText('3');
  await expect(dropped).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Orders to send' })).toBeFocused();
  await row(page, 'brv-1')
    .getByRole('button', { name: /^Drop / })
    .click();
  await expect(page.getByTestId('review-included')).toHaveText('2');
  const reviewTotal = await page.getByTestId('review-total').innerText();

  await page.getByLabel('Batch name (optional)').fill('  November refills  ');
  await expectNoAxeBlockersInBothThemes(page, testInfo, 'batch-review-dropped', {
    screenshot: true,
  });
  await page.setViewportSize({ width: 1024, height: 700 });
  await saveScreen(page, testInfo, 'batch-review-1024', { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Submit 2 orders…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send 2 orders?' });
  await dialog.getByRole('button', { name: 'Send 2 orders' }).click();

  // The batch's screen is named (trimmed) and says what its orders cost.
  const h1 = page.getByRole('heading', { level: 1, name: 'November refills' });
  await expect(h1).toBeFocused();
  await expect(page.getByText(/^Batch of 2 protocols, started /)).toBeVisible();
  await expectBatchFinished(page);
  await expect(page.getByTestId('batch-ordered')).toHaveText(`2 orders created, ${reviewTotal}`);
  const items = page.getByRole('list', { name: 'Orders of the batch' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'brv-1' })).toHaveCount(0);
  await expectNoAxeBlockersInBothThemes(page, testInfo, 'batch-run-named', { screenshot: true });

  // The server has one order of each sent protocol and none of the dropped one.
  expect(await serverOrderCounts(host, 'brv-')).toEqual({ 'brv-0': 1, 'brv-2': 1 });
  // The dropped protocol is kept as it was.
  expect(host.core.store.protocols.orderSource(ids[1]!)).toMatchObject({ sourceId: 'brv-1' });

  // The batches list: the name, and the orders and money of each batch and of all.
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { level: 1, name: 'Batches' })).toBeFocused();
  const table = page.locator('table.batch-table');
  const named = table
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: /^November refills/ }) });
  await expect(named.getByTestId('batch-total')).toHaveText(reviewTotal);
  await expect(named.getByRole('cell').nth(2)).toHaveText('2'); // Created
  await expect(page.getByTestId('batches-total')).toHaveText(reviewTotal);
  await expect(page.getByTestId('batches-created')).toHaveText('2');
  await expect(
    page.getByRole('status').filter({ hasText: /^1 batch: 2 orders created, / }),
  ).toContainText(reviewTotal);

  // The dropped one goes in a later batch, unnamed: shown by its size and start date (the
  // two just ordered are held back as possible duplicates).
  await chooseAllForReview(page, 3);
  await expect(page.getByTestId('review-held')).toHaveText('2', { timeout: 20_000 });
  await expect(page.getByTestId('review-included')).toHaveText('1');
  await page.getByRole('button', { name: 'Submit 1 order…' }).click();
  await page
    .getByRole('dialog', { name: 'Send 1 order?' })
    .getByRole('button', { name: 'Send 1 order' })
    .click();
  // One protocol is one order: named after its patient, never "Batch of 1 protocol".
  const single = page.getByRole('heading', { level: 1, name: /^Order for .+/ });
  await expect(single).toBeVisible();
  await expect(page.getByText(/Batch of 1 protocol/)).toHaveCount(0);
  await expectBatchFinished(page);
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('link', { name: /^Order for .+, started / })).toBeVisible();
  await expect(page.getByText(/Batch of 1 protocol/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^November refills ?, started / })).toBeVisible();
  await expect(page.getByTestId('batches-created')).toHaveText('3');
  await expectNoAxeBlockersInBothThemes(page, testInfo, 'batches-list-totals', {
    screenshot: true,
  });
  expect(await serverOrderCounts(host, 'brv-')).toEqual({ 'brv-0': 1, 'brv-1': 1, 'brv-2': 1 });
});

const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

test('a batch of 4 with 3 orders cancelled since: the batch, its rows, all batches and the patient count only the one still standing', async ({
  app: page,
  host,
}, testInfo) => {
  await connectLocalSandbox(page);
  seedProtocols(host, 4, 'bcx');
  await chooseAllForReview(page, 4);
  const batchId = await submitFromReview(page, 4);
  await expectBatchFinished(page);
  await expect(page.getByTestId('batch-ordered')).toHaveText(/^4 orders created, \$/);

  // Three of its orders are cancelled (as from the order queue): the mirror says so at once.
  const items = host.core.store.batches.items(batchId);
  const price = (orderId: string) =>
    dollars(host.core.store.orders.get(orderId)!.totalPrice ?? '0.00');
  const [kept, ...gone] = items.map((i) => ({
    sourceId: i.request.customer.sourceId,
    id: i.orderId!,
  }));
  for (const order of gone) await cancelOrder(host, order.id);
  const standing = price(kept!.id);
  const notCharged = gone.reduce((sum, o) => sum + price(o.id), 0);

  // The batch: only the standing order's money, the cancelled ones apart.
  await expect(page.getByTestId('batch-ordered')).toHaveText(
    `1 order standing, ${usd(standing)} · 3 cancelled · ${usd(notCharged)} not charged`,
  );
  await expect(runCount(page, 'created')).toHaveText('1');
  await expect(runCount(page, 'cancelled')).toHaveText('3');
  await expect(page.getByTestId('batch-cancelled')).toContainText(
    `${usd(notCharged)} is not charged`,
  );
  // Each row says what its order is now, not "Created" forever.
  const rows = page.getByRole('list', { name: 'Orders of the batch' }).getByRole('listitem');
  for (const order of gone) {
    const row = rows.filter({ hasText: order.sourceId });
    await expect(row.locator('.item-state')).toHaveText('Cancelled');
  }
  const keptRow = rows.filter({ hasText: kept!.sourceId });
  await expect(keptRow.locator('.item-state')).toHaveText('Created');
  await expect(keptRow).toContainText('New');
  await saveScreen(page, testInfo, 'batch-run-cancelled');

  // All batches: the same figures, the cancelled money left out of the total.
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { level: 1, name: 'Batches' })).toBeFocused();
  await expect(page.getByTestId('batch-created')).toHaveText('1');
  await expect(page.getByTestId('batch-cancelled')).toHaveText(
    `3 (${usd(notCharged)} not charged)`,
  );
  await expect(page.getByTestId('batch-total')).toHaveText(usd(standing));
  await expect(page.getByTestId('batches-created')).toHaveText('1');
  await expect(page.getByTestId('batches-total')).toHaveText(usd(standing));
  await expect(page.getByRole('status').filter({ hasText: /^1 batch: / })).toHaveText(
    `1 batch: 1 order standing, ${usd(standing)} · 3 cancelled · ${usd(notCharged)} not charged`,
  );
  await saveScreen(page, testInfo, 'batches-list-cancelled');

  // The patient of a cancelled order: nothing standing, the order counted as cancelled.
  await page.evaluate((sid) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = `#/patients/${sid}`;
  }, gone[0]!.sourceId);
  await expect(page.getByTestId('patient-outcome')).toHaveText(
    `0 orders standing, $0.00 · 1 cancelled · ${usd(price(gone[0]!.id))} not charged`,
  );
});

test('a review where the catalog says 2 of 3 protocols hold a discontinued product: those are counted out as "Will be refused", and only the third is sent', async ({
  app: page,
  host,
  keychainService,
}, testInfo) => {
  await connectLocalSandbox(page);
  const [packOnly] = validOrderBody().lineItems;
  seedProtocol(host, protocolFor('brf-0', { lineItems: [packOnly] } as Partial<ProtocolRequest>));
  const refusedIds = [
    seedProtocol(host, protocolFor('brf-1')),
    seedProtocol(host, protocolFor('brf-2')),
  ];
  // The partner has discontinued the external product, and the local catalog says so.
  await (await embeddedControls(host, keychainService)).productStatus(1035, 'DISCONTINUED');
  const store = host.core.store;
  store.products.upsertMany([{ ...store.products.get(1035)!, status: 'DISCONTINUED' }]);

  await chooseAllForReview(page, 3);
  await expect(page.getByTestId('review-refused')).toHaveText('2', { timeout: 20_000 });
  await expect(page.getByTestId('review-included')).toHaveText('1');
  const sent = row(page, 'brf-0');
  await expect(sent).toHaveCount(1);
  const only = await sent.locator('.review-estimate').first().innerText();
  await expect(page.getByTestId('review-total')).toHaveText(only.trim());
  const refused = page.getByRole('region', { name: 'Will be refused' });
  for (const [i, id] of refusedIds.entries()) {
    const who = `Ada Patient brf-${i + 1}`;
    await expect(refused.getByRole('list', { name: `Why ${who} will be refused` })).toHaveText(
      'Whey-Free Protein Powder, Vanilla is discontinued',
    );
    await expect(
      refused.getByRole('link', { name: `Fix protocol of ${who} in the editor` }),
    ).toHaveAttribute('href', `#/protocols/${id}`);
  }
  await expect(page.getByText(/DISCONTINUED/)).toHaveCount(0);
  await expectNoAxeBlockersInBothThemes(page, testInfo, 'batch-review-refused', {
    screenshot: true,
  });

  // The dialog counts and prices only what is sent; only that is sent.
  await page.getByRole('button', { name: 'Submit 1 order…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send 1 order?' });
  await expect(dialog).toContainText(`for a total of ${only.trim()}.`);
  await expect(dialog).toContainText('2 protocols left out of the batch will not be sent.');
  await saveScreen(page, testInfo, 'batch-review-refused-confirm', { fullPage: false });
  await dialog.getByRole('button', { name: 'Send 1 order' }).click();
  await expectBatchFinished(page);
  expect(await serverOrderCounts(host, 'brf-')).toEqual({ 'brf-0': 1 });
});
