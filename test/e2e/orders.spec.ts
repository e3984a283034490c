import type { Page } from '@playwright/test';
import { readCsv } from '@main/csv-text';
import { normalizeOrder, type Order } from '@shared/api';
import { expect, test, type BrowserHost } from '@test/support/e2e/fixtures';
import {
  escapeRegExp,
  expectConnected,
  expectFirstRunConnect,
  fillPartnerForm,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import { axeBlockers } from '@test/support/e2e/axe';
import { downloaded, textOf } from '@test/support/e2e/downloads';
import { saveScreen } from '@test/support/e2e/screens';
import { validOrderBody, type TestSandbox } from '@test/support/sandbox';

/**
 * The order queue (#/orders) and an order's detail (#/orders/<id>) against a real partner
 * sandbox (no auto-advance: the test moves orders along with the sandbox controls).
 */

const queue = (page: Page) => page.getByRole('list', { name: 'Orders' });
const rows = (page: Page) => queue(page).getByRole('listitem');
const details = (page: Page) => page.getByRole('region', { name: 'Order details' });
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search orders' });
const statusChip = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter by status' }).getByRole('checkbox', { name: label });
const summary = (page: Page) => page.locator('.order-summary [role="status"]');
const rowOf = (page: Page, orderId: string) =>
  queue(page).getByRole('link', { name: new RegExp(escapeRegExp(orderId)) });

interface Patient {
  sourceId: string;
  firstName: string;
  lastName: string;
}

async function createOrder(sandbox: TestSandbox, patient: Patient, extra = {}): Promise<Order> {
  const base = validOrderBody();
  const res = await sandbox.api<Order>('POST', '/v1/orders', {
    ...base,
    customer: { ...base.customer, ...patient },
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function advance(sandbox: TestSandbox, orderId: string, to: string): Promise<Order> {
  const res = await sandbox.api<Order>('POST', `/_sandbox/orders/${orderId}/advance`, { to });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Connects the app to the partner sandbox and opens the queue after a sync. */
async function connectAndOpenOrders(page: Page, sandbox: TestSandbox): Promise<void> {
  await expectFirstRunConnect(page);
  await fillPartnerForm(page, sandbox);
  await partnerForm(page).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(page, 'Clinic test server');
  await ui.banner(page).getByRole('button', { name: 'Sync now' }).click();
  await expect(ui.banner(page)).toContainText(/Synced \d/);
  await ui.sidebar(page).getByRole('link', { name: 'Orders' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
}

/** The poller's next cycle for this order, now (as a minute later it would run by itself). */
async function pollNow(host: BrowserHost, orderId: string): Promise<void> {
  // The window in use polls young orders itself, within its budget of requests a minute: a
  // cycle asked for may find that budget spent for a moment, and read nothing.
  await expect
    .poll(
      async () => {
        host.core.store.orders.schedulePoll(orderId, { nextPollAt: 0 });
        const report = await host.core.session!.poller.pollOnce();
        expect(report.error).toBeNull();
        return report.polled;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBeGreaterThan(0);
}

/** A mark on the page's window: still there later means the page was never reloaded. */
const markPage = (page: Page) =>
  page.evaluate(() => {
    (globalThis as unknown as { __notReloaded: boolean }).__notReloaded = true;
  });
const expectNotReloaded = async (page: Page) =>
  expect(
    await page.evaluate(() => (globalThis as unknown as { __notReloaded?: boolean }).__notReloaded),
  ).toBe(true);

const ADA = { sourceId: 'patient-0001', firstName: 'Ada', lastName: 'Lovelace' };
const GRACE = { sourceId: 'patient-0002', firstName: 'Grace', lastName: 'Hopper' };
const ALAN = { sourceId: 'patient-0003', firstName: 'Alan', lastName: 'Turing' };

test('orders made on the server show in the queue, newest first, with counts, filters, search and keyboard access', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  const ada = await createOrder(partnerSandbox, ADA);
  const grace = await createOrder(partnerSandbox, GRACE, { shippingMethod: 'EXPRESS' });
  const alan = await createOrder(partnerSandbox, ALAN);
  await advance(partnerSandbox, alan.id, 'PROCESSING');

  await connectAndOpenOrders(app, partnerSandbox);
  await expect(rows(app)).toHaveCount(3);
  await expect(summary(app)).toHaveText('3 orders');
  // Newest first.
  await expect(queue(app).locator('.row-title')).toHaveText([
    'Alan Turing',
    'Grace Hopper',
    'Ada Lovelace',
  ]);
  const alanRow = rowOf(app, alan.id);
  await expect(alanRow).toContainText('Processing');
  await expect(alanRow).toContainText(`$${alan.totalPrice}`);
  await expect(statusChip(app, 'New')).toHaveAccessibleDescription(': 2 orders');
  await expect(statusChip(app, 'Processing')).toHaveAccessibleDescription(': 1 order');
  await expect(statusChip(app, 'Shipped')).toHaveAccessibleDescription(': 0 orders');
  await saveScreen(app, testInfo, 'orders-queue');

  // Search: a patient's name, a sourceId, an order id.
  await search(app).fill('grace');
  await expect(rows(app)).toHaveCount(1);
  await expect(rowOf(app, grace.id)).toBeVisible();
  await expect(summary(app)).toHaveText('1 order match');
  await search(app).fill('patient-0003');
  await expect(rows(app)).toHaveCount(1);
  await expect(rowOf(app, alan.id)).toBeVisible();
  await search(app).fill(ada.id);
  await expect(rows(app)).toHaveCount(1);
  await expect(rowOf(app, ada.id)).toBeVisible();
  await expect(search(app)).toHaveAttribute('maxlength', '200');
  await search(app).fill('nobody by this name');
  await expect(app.getByText('No orders match the search and filters.')).toBeVisible();
  await saveScreen(app, testInfo, 'orders-no-match');
  await app.getByRole('button', { name: 'Clear search' }).click();
  await expect(rows(app)).toHaveCount(3);

  // Status.
  await statusChip(app, 'Processing').check();
  await expect(rows(app)).toHaveCount(1);
  await expect(rowOf(app, alan.id)).toBeVisible();
  await statusChip(app, 'New').check();
  await expect(rows(app)).toHaveCount(3);
  await statusChip(app, 'Processing').uncheck();
  await expect(rows(app)).toHaveCount(2);
  await expect(summary(app)).toHaveText('2 orders match');
  await saveScreen(app, testInfo, 'orders-status-filter');
  await app.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(rows(app)).toHaveCount(3);

  // Created date: a preset, then a custom range, and a range that ends before it starts.
  const created = app.getByRole('combobox', { name: 'Created' });
  await created.selectOption({ label: 'Last 7 days' });
  await expect(rows(app)).toHaveCount(3);
  await created.selectOption({ label: 'Custom range' });
  await app.getByLabel('From', { exact: true }).fill('2020-01-01');
  await app.getByLabel('To', { exact: true }).fill('2020-01-31');
  await expect(app.getByText('No orders match the search and filters.')).toBeVisible();
  await expect(statusChip(app, 'New')).toHaveAccessibleDescription(': 0 orders');
  await app.getByLabel('From', { exact: true }).fill('2020-02-15');
  await expect(app.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByText('The end date is before the start date.')).toBeVisible();
  await saveScreen(app, testInfo, 'orders-date-range-error');
  const today = new Date().toISOString().slice(0, 10);
  await app.getByLabel('To', { exact: true }).fill(today);
  await expect(rows(app)).toHaveCount(3);
  await created.selectOption({ label: 'Any time' });

  // Keyboard: Tab reaches the rows, arrows move between them, Enter opens one.
  await rowOf(app, alan.id).focus();
  await app.keyboard.press('ArrowDown');
  await expect(rowOf(app, grace.id)).toBeFocused();
  await app.keyboard.press('End');
  await expect(rowOf(app, ada.id)).toBeFocused();
  await app.keyboard.press('Home');
  await expect(rowOf(app, alan.id)).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Enter');
  await expect(app).toHaveURL(new RegExp(`#/orders/${grace.id}$`));
  const detail = details(app);
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Order ${grace.id}`);
  await expect(rowOf(app, grace.id)).toHaveAttribute('aria-current', 'page');
  await expect(detail.getByRole('table', { name: 'Line items' })).toBeVisible();
  await expect(detail.getByRole('table', { name: 'Totals' })).toContainText(`$${grace.totalPrice}`);
  await expect(detail).toContainText('Express');
  await expect(detail).toContainText('30 days');
  await expect(detail).toContainText('One time');
  await expect(detail).toContainText('1 Main St');
  await expect(detail.getByRole('button', { name: 'Cancel order…' })).toBeVisible();
  await saveScreen(app, testInfo, 'order-detail-new');

  await expect(detail.locator('.order-cancel-note')).toHaveCount(0);

  // The detail of a PROCESSING order offers no cancel, and says why.
  await rowOf(app, alan.id).click();
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Order ${alan.id}`);
  await expect(detail.getByRole('button', { name: 'Cancel order…' })).toHaveCount(0);
  await expect(detail.locator('.order-cancel-note')).toHaveText(
    'Orders can be cancelled only while New, before processing starts; this one is Processing.',
  );
});

test('an order advanced to SHIPPED in the sandbox updates the queue, the counts, the timeline and tracking without a reload', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  const order = await createOrder(partnerSandbox, ADA);
  const other = await createOrder(partnerSandbox, GRACE);
  await connectAndOpenOrders(app, partnerSandbox);
  await rowOf(app, order.id).click();
  const detail = details(app);
  const timeline = detail.getByRole('list', { name: 'Status changes' });
  await expect(timeline.getByRole('listitem')).toHaveText([/New/]);
  await expect(detail).toContainText('No tracking yet');
  await markPage(app);

  await advance(partnerSandbox, order.id, 'PROCESSING');
  await pollNow(host, order.id);
  await expect(detail.locator('.order-detail-sub')).toContainText('Processing');
  await expect(rowOf(app, order.id)).toContainText('Processing');
  await expect(statusChip(app, 'Processing')).toHaveAccessibleDescription(': 1 order');
  await expect(timeline.getByRole('listitem')).toHaveText([/New/, /Processing/]);

  await advance(partnerSandbox, order.id, 'SHIPPED');
  await pollNow(host, order.id);
  await expect(detail.locator('.order-detail-sub')).toContainText('Shipped');
  await expect(rowOf(app, order.id)).toContainText('Shipped');
  await expect(rowOf(app, other.id)).toContainText('New');
  await expect(statusChip(app, 'Shipped')).toHaveAccessibleDescription(': 1 order');
  await expect(statusChip(app, 'Processing')).toHaveAccessibleDescription(': 0 orders');
  await expect(timeline.getByRole('listitem')).toHaveText([/New/, /Processing/, /Shipped/]);
  await expect(detail.getByRole('button', { name: 'Cancel order…' })).toHaveCount(0);
  await expect(detail).toContainText(
    'Orders can be cancelled only while New, before processing starts; this one is Shipped.',
  );
  const tracking = detail.getByRole('region', { name: 'Tracking' });
  await expect(tracking).toContainText('USPS');
  await expect(tracking).toContainText(/9400\d{18}/);
  await expectNotReloaded(app);
  await saveScreen(app, testInfo, 'order-detail-shipped');

  // The carrier's page opens in the browser (app.openExternal; a new tab in the browser host).
  await app
    .context()
    .route(/^https:\/\/tools\.usps\.com\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>USPS</title>' }),
    );
  const popup = app.waitForEvent('popup');
  await tracking.getByRole('button', { name: 'Open the tracking page' }).click();
  expect((await popup).url()).toMatch(
    /^https:\/\/tools\.usps\.com\/go\/TrackConfirmAction\?tLabels=9400/,
  );
  await (await popup).close();

  // An exact (1.0.2) copy of the order, as a create or cancel answer carries it, has the
  // carrier's checkpoints: they are shown as soon as the mirror has them.
  const exact = await advance(partnerSandbox, order.id, 'DELIVERED');
  const stored = host.core.store.orders.upsert(normalizeOrder(exact), { source: 'pulled' });
  host.core.bus.emit('order-status', {
    orderId: order.id,
    previous: stored.previous?.status ?? null,
    status: stored.order.status,
    order: stored.order,
  });
  const checkpoints = tracking.getByRole('list', { name: 'Tracking checkpoints' });
  await expect(checkpoints.getByRole('listitem')).toHaveCount(4);
  await expect(checkpoints.getByRole('listitem').first()).toContainText('Delivered');
  await expect(checkpoints).toContainText('Reno, NV, US');
  await expect(checkpoints).toContainText('Picked up by carrier');
  await expect(detail.locator('.order-detail-sub')).toContainText('Delivered');
  await expect(rowOf(app, order.id)).toContainText('Delivered');
  await expectNotReloaded(app);
  await saveScreen(app, testInfo, 'order-detail-delivered');
});

test('a NEW order is cancelled after a confirmation; one the server already processes is refused with a clear message', async ({
  app,
  host,
  partnerSandbox,
}, testInfo) => {
  const fresh = await createOrder(partnerSandbox, ADA);
  const moving = await createOrder(partnerSandbox, GRACE);
  await connectAndOpenOrders(app, partnerSandbox);

  await rowOf(app, fresh.id).click();
  const detail = details(app);
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Order ${fresh.id}`);
  const cancel = detail.getByRole('button', { name: 'Cancel order…' });
  await cancel.click();
  const dialog = app.getByRole('alertdialog', { name: 'Cancel this order?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(fresh.id);
  await expect(dialog.getByRole('button', { name: 'Keep the order' })).toBeFocused();
  await saveScreen(app, testInfo, 'order-cancel-dialog', { fullPage: false });
  // Keeping it changes nothing.
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(cancel).toBeFocused();
  expect((await partnerSandbox.api('GET', `/v1/orders/${fresh.id}`)).body.status).toBe('CREATED');

  await cancel.click();
  await dialog.getByRole('button', { name: 'Cancel order', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(
    detail.getByRole('status').filter({ hasText: 'The order is cancelled.' }),
  ).toBeVisible();
  await expect(detail.locator('.order-detail-sub')).toContainText('Cancelled');
  await expect(detail.getByRole('button', { name: 'Cancel order…' })).toHaveCount(0);
  await expect(detail.locator('.order-cancel-note')).toHaveText('This order is already cancelled.');
  await expect(rowOf(app, fresh.id)).toContainText('Cancelled');
  await expect(statusChip(app, 'Cancelled')).toHaveAccessibleDescription(': 1 order');
  expect((await partnerSandbox.api('GET', `/v1/orders/${fresh.id}`)).body.status).toBe('CANCELLED');
  await saveScreen(app, testInfo, 'order-cancelled');

  // The server moved this one on since the mirror last read it: the app still shows NEW (the
  // poller is stopped, as on a desk whose next read has not come yet).
  await host.core.session!.poller.stop();
  await advance(partnerSandbox, moving.id, 'PROCESSING');
  await rowOf(app, moving.id).click();
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Order ${moving.id}`);
  await expect(detail.locator('.order-detail-sub')).toContainText('New');
  await detail.getByRole('button', { name: 'Cancel order…' }).click();
  await dialog.getByRole('button', { name: 'Cancel order', exact: true }).click();
  const refusal = detail.getByRole('alert');
  await expect(refusal).toContainText('The server refused to cancel this order.');
  await expect(refusal).toContainText('already being processed and can no longer be cancelled');
  // The refusal brought the server's copy: PROCESSING, and no cancel offered any more.
  await expect(detail.locator('.order-detail-sub')).toContainText('Processing');
  await expect(detail.getByRole('button', { name: 'Cancel order…' })).toHaveCount(0);
  await expect(rowOf(app, moving.id)).toContainText('Processing');
  expect((await partnerSandbox.api('GET', `/v1/orders/${moving.id}`)).body.status).toBe(
    'PROCESSING',
  );
  await saveScreen(app, testInfo, 'order-cancel-refused');

  // Offline: a refresh says so, and what is shown stays.
  await partnerSandbox.close();
  await detail.getByRole('button', { name: 'Refresh' }).click();
  await expect(detail.getByRole('alert')).toContainText('The order could not be refreshed.');
  await expect(detail.getByRole('alert')).toContainText('could not be reached');
  await expect(detail.getByRole('table', { name: 'Line items' })).toBeVisible();
  await saveScreen(app, testInfo, 'order-refresh-offline');
});

test('Export CSV downloads exactly the orders the filtered queue shows, and is disabled when it is empty', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  const ada = await createOrder(partnerSandbox, ADA);
  const mary = await createOrder(partnerSandbox, {
    sourceId: 'patient-0004',
    firstName: 'Mary, "Molly"',
    lastName: 'Lovelace',
  });
  await createOrder(partnerSandbox, GRACE);
  const alan = await createOrder(partnerSandbox, ALAN);
  await advance(partnerSandbox, alan.id, 'PROCESSING');
  await connectAndOpenOrders(app, partnerSandbox);
  await expect(rows(app)).toHaveCount(4);

  // New orders whose patient matches "lovelace": Ada and Mary, not Grace (new) nor Alan
  // (processing). A word of 8 letters, which no random order id holds by chance (ids are searched too).
  await statusChip(app, 'New').check();
  await search(app).fill('lovelace');
  await expect(rows(app)).toHaveCount(2);
  const exportButton = app.getByRole('button', { name: 'Export CSV' });
  await expect(exportButton).toBeEnabled();
  const download = await downloaded(app, () => exportButton.click());
  expect(download.suggestedFilename()).toMatch(/^order-desk-orders-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(
    app.getByText(`Exported 2 orders to ${download.suggestedFilename()}.`),
  ).toBeVisible();
  await saveScreen(app, testInfo, 'orders-exported');
  const text = await textOf(download);
  expect(text.startsWith('\uFEFFOrder ID,')).toBe(true);
  const table = readCsv(text);
  const at = (name: string) => table.header.indexOf(name);
  // Newest first, as the queue lists them; the name with a comma and quotes is one cell.
  expect(table.rows.map((r) => r.cells[at('Order ID')])).toEqual([mary.id, ada.id]);
  expect(table.rows.map((r) => r.cells[at('First name')])).toEqual(['Mary, "Molly"', 'Ada']);
  expect(table.rows.map((r) => r.cells[at('Status')])).toEqual(['NEW', 'NEW']);
  expect(table.rows[1]!.cells[at('Total')]).toBe(ada.totalPrice);

  // Nothing matches: nothing to export, and the button says why.
  await search(app).fill('nobody by this name');
  await expect(app.getByText('No orders match the search and filters.')).toBeVisible();
  await expect(exportButton).toBeDisabled();
  await expect(exportButton).toHaveAccessibleDescription('Nothing to export');
  await saveScreen(app, testInfo, 'orders-export-disabled');
});

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violations on the order queue and detail, ${theme} theme`, async ({
    page,
    host,
    partnerSandbox,
  }, testInfo) => {
    const order = await createOrder(partnerSandbox, ADA);
    await createOrder(partnerSandbox, GRACE);
    await advance(partnerSandbox, order.id, 'SHIPPED');
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await connectAndOpenOrders(page, partnerSandbox);
    await expect(rows(page)).toHaveCount(2);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const blockers: Record<string, string[]> = {};
    const check = async (screen: string, include?: string) => {
      await saveScreen(page, testInfo, `${theme}-${screen}`, { fullPage: !include });
      const found = await axeBlockers(page, testInfo, `${theme}-${screen}`, include);
      blockers[screen] = found.map(
        (f) => `${f.impact} ${f.id}: ${f.help} (${f.targets.join(', ')})`,
      );
    };
    await check('orders-queue');
    await rowOf(page, order.id).click();
    await expect(details(page).getByRole('region', { name: 'Tracking' })).toContainText('USPS');
    await check('order-detail');
    await page.getByRole('combobox', { name: 'Created' }).selectOption({ label: 'Custom range' });
    await page.getByLabel('From', { exact: true }).fill('2020-02-15');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
    await check('orders-range-error');
    await page.getByRole('combobox', { name: 'Created' }).selectOption({ label: 'Any time' });
    await page.getByRole('link', { name: /Grace Hopper/ }).click();
    await details(page).getByRole('button', { name: 'Cancel order…' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Cancel this order?' })).toBeVisible();
    await check('order-cancel-dialog', 'dialog[open]');
    for (const [screen, found] of Object.entries(blockers))
      expect.soft(found, `serious or critical axe violations on ${screen} (${theme})`).toEqual([]);
  });
}

/** The queue's rows whose whole box is on screen: in the window and in the queue's scroller. */
async function rowsInView(page: Page): Promise<number> {
  const viewport = page.viewportSize()!;
  const scroller = (await page.locator('.order-scroller').boundingBox())!;
  let inView = 0;
  for (const box of await Promise.all((await rows(page).all()).map((r) => r.boundingBox()))) {
    if (!box) continue;
    const top = Math.max(0, scroller.y);
    const bottom = Math.min(viewport.height, scroller.y + scroller.height);
    if (box.y >= top - 0.5 && box.y + box.height <= bottom + 0.5 && box.height > 0) inView++;
  }
  return inView;
}

test('a day of orders: at 1280×800 the queue shows at least ten of them beside the detail of one', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  const patients = Array.from({ length: 24 }, (_, i) => ({
    sourceId: `patient-q${i}`,
    firstName: `Pat${i}`,
    lastName: 'Queue',
  }));
  const orders: Order[] = [];
  for (const p of patients) orders.push(await createOrder(partnerSandbox, p));
  await connectAndOpenOrders(app, partnerSandbox);
  await expect(summary(app)).toHaveText('24 orders');
  await rowOf(app, orders[20]!.id).click();
  await expect(details(app).getByRole('heading', { level: 2 })).toHaveText(
    `Order ${orders[20]!.id}`,
  );
  await expect.poll(() => rowsInView(app)).toBeGreaterThanOrEqual(10);
  // Each row still says who, how much, which order, when and its status, on its two lines.
  const first = rowOf(app, orders[23]!.id);
  for (const part of ['.row-title', '.row-figure', '.order-id', '.badge']) {
    const [row, box] = [(await first.boundingBox())!, (await first.locator(part).boundingBox())!];
    expect(box.y, part).toBeGreaterThanOrEqual(row.y);
    expect(box.y + box.height, part).toBeLessThanOrEqual(row.y + row.height);
  }
  await saveScreen(app, testInfo, 'orders-queue-1280', { fullPage: false });
  await app.setViewportSize({ width: 1024, height: 700 });
  // The smallest window: its height holds fewer, still more than twice the two and a half of old.
  await expect.poll(() => rowsInView(app)).toBeGreaterThanOrEqual(6);
  await saveScreen(app, testInfo, 'orders-queue-1024', { fullPage: false });
});
