import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e/fixtures';
import { connectLocalSandbox } from '../support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '../support/e2e/axe';
import {
  chooseAllForReview,
  expectBatchFinished,
  seedProtocols,
  tabTo,
} from '../support/e2e/batches';
import { serverOrderCounts } from '../support/e2e/local-orders';
import { saveScreen } from '../support/e2e/screens';

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
  await expect(page.getByRole('heading', { level: 1, name: 'Batch of 1 protocol' })).toBeVisible();
  await expectBatchFinished(page);
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('link', { name: /^Batch of 1 protocol ?, started / })).toBeVisible();
  await expect(page.getByRole('link', { name: /^November refills ?, started / })).toBeVisible();
  await expect(page.getByTestId('batches-created')).toHaveText('3');
  await expectNoAxeBlockersInBothThemes(page, testInfo, 'batches-list-totals', {
    screenshot: true,
  });
  expect(await serverOrderCounts(host, 'brv-')).toEqual({ 'brv-0': 1, 'brv-1': 1, 'brv-2': 1 });
});
