import type { Locator, Page } from '@playwright/test';
import { readCsv } from '@main/csv-text';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { downloaded, textOf } from '@test/support/e2e/downloads';
import { expect, test } from '@test/support/e2e/fixtures';
import { embeddedControls, patientBody, placeOrder } from '@test/support/e2e/local-orders';
import { printedPdf } from '@test/support/e2e/pdf';
import { saveScreen } from '@test/support/e2e/screens';

/**
 * Bulk actions on the order queue (#/orders) against the embedded sandbox: select many orders
 * from the keyboard (Space, Shift+Space), cancel the New ones (one refused by the server, one
 * shipped left, each reported with why), export the selection as CSV, print their schedules.
 */

const LAST = 'Bulkcase';
const queue = (page: Page) => page.getByRole('list', { name: 'Orders' });
const rowLinks = (page: Page) => queue(page).getByRole('link');
const summary = (page: Page) => page.locator('.order-summary [role="status"]');
const bar = (page: Page) => page.getByRole('group', { name: 'Selected orders' });
const rowOf = (page: Page, orderId: string) =>
  queue(page).getByRole('link', { name: new RegExp(`order ${orderId},`) });

/** Shift+Tab until `target` has the focus: the keyboard path back up from the queue. */
async function shiftTabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
    await page.keyboard.press('Shift+Tab');
  }
  throw new Error(`Shift+Tab did not reach ${target.toString()} in ${max} presses`);
}

/** Every one of the 22 orders shown, from the keyboard: Space on the first, Shift+Space on the last. */
async function selectAll(page: Page): Promise<void> {
  await rowLinks(page).first().focus();
  await page.keyboard.press('Space');
  await expect(bar(page).getByRole('status')).toHaveText('1 selected');
  await page.keyboard.press('End');
  // The last row is scrolled into view first (the queue is virtualised), then focused.
  await expect(queue(page).getByRole('link', { name: new RegExp(`^P0 ${LAST}, `) })).toBeFocused();
  await page.keyboard.press('Shift+Space');
  await expect(bar(page).getByRole('status')).toHaveText('22 selected');
}

test('select orders by keyboard, cancel the New ones with each refusal reported, export them as CSV and print their schedules', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  test.setTimeout(180_000);
  await connectLocalSandbox(app);
  // The built-in sandbox moves every order a step a minute: held, so that the New orders are
  // still New at the bulk cancel however long the steps before it take.
  (await host.core.active.embeddedSandbox!).sandbox.controls.setFulfillment({ paused: true });
  // 22 orders, oldest first: the shipped one, then 21 New (one of which the server moves on).
  const orders = [];
  for (let i = 0; i < 22; i++) {
    const who = {
      sourceId: `bulk-${String(i).padStart(2, '0')}`,
      firstName: `P${i}`,
      lastName: LAST,
    };
    orders.push(await placeOrder(host, patientBody(who, 30)));
  }
  const controls = await embeddedControls(host, keychainService);
  const shipped = orders[0]!;
  await controls.advance(shipped.id, 'SHIPPED');
  await host.core.session!.orders.refreshOrder(shipped.id);

  await ui.sidebar(app).getByRole('link', { name: 'Orders', exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await app.getByRole('searchbox', { name: 'Search orders' }).fill(LAST);
  await expect(summary(app)).toHaveText('22 orders match');
  await expect(bar(app)).toHaveCount(0);

  // Keyboard only: the first row, Space; the last, Shift+Space selects the range between.
  const queueTop = async () => (await queue(app).boundingBox())!.y;
  const topBefore = await queueTop();
  await rowLinks(app).first().focus();
  await app.keyboard.press('Space');
  await expect(bar(app).getByRole('status')).toHaveText('1 selected');
  expect(await queueTop(), 'the bar appearing moves nothing').toBe(topBefore);
  await expect(rowLinks(app).first()).toHaveAccessibleName(/, selected$/);
  await app.keyboard.press('End');
  await expect(rowOf(app, shipped.id)).toBeFocused();
  await expect(rowOf(app, shipped.id)).toContainText('Shipped');
  await app.keyboard.press('Shift+Space');
  await expect(bar(app).getByRole('status')).toHaveText('22 selected');
  // The rows in view (the queue is virtualised) are all checked.
  await expect(queue(app).getByRole('checkbox', { checked: false })).toHaveCount(0);
  await expect(
    queue(app).getByRole('checkbox', { name: `Select order ${shipped.id} of P0 ${LAST}` }),
  ).toBeChecked();
  // The mouse too: a row's checkbox takes it out, and puts it back.
  const firstCheck = queue(app).getByRole('checkbox', {
    name: `Select order ${shipped.id} of P0 ${LAST}`,
  });
  await firstCheck.click();
  await expect(bar(app).getByRole('status')).toHaveText('21 selected');
  await firstCheck.click();
  await expect(bar(app).getByRole('status')).toHaveText('22 selected');
  await rowOf(app, shipped.id).focus();
  // Space again on one row takes it out, and again puts it back.
  await app.keyboard.press('Space');
  await expect(bar(app).getByRole('status')).toHaveText('21 selected');
  await app.keyboard.press('Space');
  await expect(bar(app).getByRole('status')).toHaveText('22 selected');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'orders-bulk-selection', {
    screenshot: true,
  });

  // At the smallest supported window the bar sits beside the title; the queue keeps its height.
  await app.setViewportSize({ width: 1024, height: 700 });
  await expect(bar(app)).toBeInViewport({ ratio: 1 });
  const [title, group] = await Promise.all([
    app.getByRole('heading', { level: 1, name: 'Orders' }).boundingBox(),
    bar(app).boundingBox(),
  ]);
  expect(group!.y, 'the bar is on the title line').toBeLessThan(title!.y + title!.height);
  await saveScreen(app, testInfo, 'orders-bulk-selection-1024', { fullPage: false });
  await app.setViewportSize({ width: 1280, height: 800 });

  // Print the schedules: one page per selected order.
  await bar(app).getByRole('button', { name: 'Print schedules' }).focus();
  await app.keyboard.press('Enter');
  await expect(
    app.getByRole('heading', { level: 1, name: 'Dosing schedules for 22 orders' }),
  ).toBeFocused();
  await expect(app.getByRole('article', { name: 'Daily dosing schedule' })).toHaveCount(22);
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'orders-bulk-schedules', {
    screenshot: true,
  });
  const printed = await printedPdf(app);
  expect(printed.pages).toBe(22);
  for (const o of orders) expect(printed.text).toContain(o.customer.sourceId);
  await app.getByRole('link', { name: 'Back to the orders' }).click();
  await expect(bar(app).getByRole('status')).toHaveText('22 selected');

  // Export the selection: exactly these 22 orders, newest first, whatever the search shows.
  // Once done the selection goes, and the focus to the title rather than the page.
  const download = await downloaded(app, () =>
    bar(app).getByRole('button', { name: 'Export selected' }).click(),
  );
  expect(download.suggestedFilename()).toMatch(/^order-desk-selected-orders-\d{4}-\d\d-\d\d\.csv$/);
  const table = readCsv(await textOf(download));
  const ids = table.rows.map((r) => r.cells[table.header.indexOf('Order ID')]);
  // Exactly the selection, in the queue's order (newest first).
  const queueOrder = host.core.store.orders
    .list({ search: LAST, limit: 100, offset: 0 })
    .map((o) => o.id);
  expect(queueOrder).toHaveLength(22);
  expect(ids).toEqual(queueOrder);

  await expect(bar(app)).toHaveCount(0);
  await expect(app.getByRole('heading', { level: 1, name: 'Orders' })).toBeFocused();
  await expect(queue(app).getByRole('checkbox', { checked: true })).toHaveCount(0);

  // Chosen again for the bulk cancel (a new search clearing it is the component test's).
  await selectAll(app);

  // The server moves one New order on since the app last read it: the app still shows it New
  // (the poller is stopped, as on a desk whose next read has not come yet).
  await host.core.session!.poller.stop();
  const moving = orders[5]!;
  await controls.advance(moving.id, 'PROCESSING');
  await expect(rowLinks(app).first()).toContainText('New');
  expect(host.core.store.orders.get(moving.id)!.status).toBe('NEW');

  // Bulk cancel from the keyboard: the confirmation counts the New ones and names the one left.
  await rowLinks(app).first().focus();
  const cancelAll = bar(app).getByRole('button', { name: 'Cancel New…' });
  await shiftTabTo(app, cancelAll);
  await app.keyboard.press('Enter');
  const dialog = app.getByRole('alertdialog');
  await expect(dialog).toHaveAccessibleName('Cancel the selected orders?');
  await expect(dialog).toContainText(
    '21 New orders will be cancelled on the server, one after another.',
  );
  await expect(dialog).toContainText('1 selected order is not New and will be left as it is:');
  await expect(dialog.getByRole('list', { name: 'Orders not cancelled' })).toContainText(
    `Order ${shipped.id} (P0 ${LAST}): Orders can be cancelled only while New, before processing starts; this one is Shipped.`,
  );
  await expect(dialog.getByRole('button', { name: 'Keep the orders' })).toBeFocused();
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'orders-bulk-cancel-confirm', {
    screenshot: () => saveScreen(app, testInfo, 'orders-bulk-cancel-confirm', { fullPage: false }),
  });
  await app.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel 21 orders' })).toBeFocused();
  await app.keyboard.press('Enter');

  // The report: 20 cancelled; the refused one and the shipped one, each with why.
  await expect(dialog.getByRole('status')).toHaveText(
    '20 orders cancelled. 2 orders were not cancelled:',
    { timeout: 30_000 },
  );
  await expect(dialog).toHaveAccessibleName('Bulk cancel finished');
  const notCancelled = dialog.getByRole('list', { name: 'Orders not cancelled' });
  await expect(notCancelled.getByRole('listitem')).toHaveCount(2);
  await expect(notCancelled.getByRole('listitem').first()).toHaveText(
    `Order ${moving.id} (P5 ${LAST}): This order is already being processed and can no longer be cancelled.`,
  );
  await expect(notCancelled.getByRole('listitem').nth(1)).toContainText(shipped.id);
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  // The report is the news: no notification per cancelled order on top of it.
  await expect(app.getByText('Order cancelled', { exact: true })).toHaveCount(0);
  await saveScreen(app, testInfo, 'orders-bulk-cancel-report', { fullPage: false });
  await app.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // The server and the queue agree: 20 cancelled, the refused one Processing, the shipped one too.
  const session = host.core.session!;
  for (const o of orders) {
    const server = await session.client.getOrder(o.id);
    const expected =
      o.id === moving.id ? 'PROCESSING' : o.id === shipped.id ? 'SHIPPED' : 'CANCELLED';
    expect(server.status, o.id).toBe(expected);
  }
  const chip = (label: string) =>
    app.getByRole('group', { name: 'Filter by status' }).getByRole('checkbox', { name: label });
  await expect(chip('Cancelled')).toHaveAccessibleDescription(': 20 orders');
  await expect(chip('Processing')).toHaveAccessibleDescription(': 1 order');
  await expect(chip('Shipped')).toHaveAccessibleDescription(': 1 order');
  await expect(chip('New')).toHaveAccessibleDescription(': 0 orders');
  await expect(rowLinks(app).first()).toContainText('Cancelled');
  // The cancel done, its selection went with the report.
  await expect(bar(app)).toHaveCount(0);
  await expect(queue(app).getByRole('checkbox', { checked: true })).toHaveCount(0);

  // Clear selection empties it.
  await queue(app).getByRole('checkbox').first().click();
  await expect(bar(app).getByRole('status')).toHaveText('1 selected');
  await bar(app).getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(bar(app)).toHaveCount(0);
  await expect(queue(app).getByRole('checkbox', { checked: true })).toHaveCount(0);
  await saveScreen(app, testInfo, 'orders-bulk-after', { fullPage: false });
});
