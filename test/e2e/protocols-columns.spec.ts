import type { Locator, Page } from '@playwright/test';
import type { AppOrder, Protocol } from '@shared/api';
import { ProtocolColumn } from '@shared/protocol-views';
import { expect, test } from '@test/support/e2e/fixtures';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import {
  connectToProtocols,
  draftLocally,
  expectSettled,
  protocolsUi as list,
} from '@test/support/e2e/protocols';
import { saveScreen } from '@test/support/e2e/screens';
import { appOrder } from '@test/support/store-fixtures';
import { nameSortKey } from '@main/protocols/protocol-search';
import { generateProtocols, seededRandom } from '@bench/protocol-search-data';

const COUNT = 10_000;
const DAY = 86_400_000;
/** The rows compared at the top of the list (the list is virtualised: only those in view exist). */
const TOP = 12;
const SUPPLIES = [30, 60, 90] as const;
const METHODS = ['STANDARD', 'EXPRESS', 'OVERNIGHT'] as const;
/** A day as the app writes it (lib/dates.ts): "Nov 26, 2026", in this machine's time zone. */
const day = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const count = (n: number) => n.toLocaleString('en-US');
const header = (page: Page) => page.getByRole('group', { name: 'Sort protocols by' });
const topNames = async (page: Page) => (await list.names(page)).slice(0, TOP);

/** SQLite's NOCASE then binary order (ASCII letters folded), as the stored keys sort. */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * 10,000 server protocols with every supply and shipping method, and orders for two patients in
 * three: some cancelled, over the last 200 days, so that every column has something to sort.
 */
function clinic(now: number) {
  const r = seededRandom(7);
  const protocols: Protocol[] = generateProtocols(COUNT).map((p) => ({
    ...p,
    daysSupply: r.pick(SUPPLIES),
    shippingMethod: r.pick(METHODS),
  }));
  const orders: AppOrder[] = [];
  protocols.forEach((p, i) => {
    if (i % 3 === 0) return;
    const made = (k: number, daysAgo: number, status: AppOrder['status']) => {
      const at = new Date(now - daysAgo * DAY - r.int(DAY)).toISOString();
      orders.push(
        appOrder(`ord_col_${i}_${k}`, {
          customer: { ...appOrder('x').customer, ...p.customer },
          createdAt: at,
          updatedAt: at,
          daysSupply: r.pick(SUPPLIES),
          // The protocol's own products and doses: its supply (a next refill counts those).
          lineItems: p.lineItems.map((li) => ({
            ...appOrder('x').lineItems[0]!,
            productId: li.productId,
            quantity: li.quantity,
            administration: li.administration ?? null,
          })),
          status,
        }),
      );
    };
    made(0, 20 + r.int(180), 'DELIVERED');
    if (i % 5 === 0) made(1, r.int(20), 'CANCELLED');
  });
  return { protocols, orders };
}

test('the protocol list in columns at 10,000 protocols: each column sorts both ways, the refill filter, the columns chosen are remembered, by mouse and keyboard', async ({
  app,
  host,
}, testInfo) => {
  test.slow(); // 10,000 protocols and 6,000 orders seeded, every sort read, axe in both themes
  await app.setViewportSize({ width: 1600, height: 900 }); // wide enough for every column
  await connectToProtocols(app);
  // The first full walk of the server's protocols is over before the seed (see the product
  // filter's spec), so the pull does not find the seeded server ids missing from the sandbox.
  await host.core.session!.sync.syncNow();
  const now = Date.now();
  const { protocols, orders } = clinic(now);
  host.core.store.protocols.upsertManyFromServer(protocols);
  host.core.store.orders.upsertMany(orders, 'pulled');
  await expect(list.count(app)).toHaveText(`${count(COUNT)} protocols`);

  // What each column shows and sorts on, worked out here from the seed itself.
  const productName = new Map(host.core.store.products.list().map((p) => [p.id, p.name]));
  const methodName = new Map(host.core.store.shippingMethods.list().map((m) => [m.id, m.name]));
  const lastOrder = new Map<string, AppOrder>();
  for (const o of orders) {
    if (o.status === 'CANCELLED') continue;
    const seen = lastOrder.get(o.customer.sourceId);
    if (!seen || Date.parse(o.createdAt) > Date.parse(seen.createdAt))
      lastOrder.set(o.customer.sourceId, o);
  }
  const rows = protocols.map((p, seq) => {
    const last = lastOrder.get(p.customer.sourceId);
    const orderedAt = last ? Date.parse(last.createdAt) : -1;
    return {
      seq,
      name: `${p.customer.firstName} ${p.customer.lastName}`,
      nameKey: nameSortKey(p.customer),
      products: nocase(p.lineItems.map((li) => productName.get(li.productId)!).join('\u001f')),
      supply: p.daysSupply!,
      shipping: nocase(methodName.get(p.shippingMethod!)!),
      lastOrder: orderedAt,
      refill: last ? orderedAt + last.daysSupply * DAY : 8.64e15,
    };
  });
  type Row = (typeof rows)[number];
  const sorted = (key: (r: Row) => string | number, desc = false, of: Row[] = rows) =>
    [...of]
      .sort((a, b) => (desc ? -1 : 1) * (cmp(key(a), key(b)) || a.seq - b.seq))
      .map((r) => r.name);

  // A row shows its columns: a patient with an order, and one never ordered for.
  const ordered = rows.find((r) => r.lastOrder > 0 && protocols[r.seq]!.lineItems.length > 2)!;
  const p = protocols[ordered.seq]!;
  await list.search(app).fill(p.customer.sourceId);
  await expectSettled(app);
  const row = list.row(app, ordered.name).first();
  const names = p.lineItems.map((li) => productName.get(li.productId)!);
  await expect(row.locator('.protocol-cell-products')).toContainText(
    `${names.slice(0, 2).join(', ')}+${names.length - 2} more`,
  );
  await expect(row.locator('.protocol-cell-supply')).toContainText(`${p.daysSupply} days`);
  await expect(row.locator('.protocol-cell-shipping')).toContainText(
    methodName.get(p.shippingMethod!)!,
  );
  await expect(row.locator('.protocol-cell-lastOrder')).toContainText(
    `${day(ordered.lastOrder)}Delivered`,
  );
  const daysLeft = Math.floor((ordered.refill - Date.now()) / DAY);
  await expect(row.locator('.protocol-cell-nextRefill')).toContainText(
    `${day(ordered.refill)}${daysLeft < 0 ? 'Ran out' : daysLeft === 0 ? 'Less than a day' : `${daysLeft} day`}`,
  );
  await expect(row.locator('.protocol-cell-sync')).toHaveText('Sync: Synced');
  await list.search(app).fill('');
  await expectSettled(app);

  // Each column sorts in its usual direction on the first click, the other way on the next.
  const checks: [column: string, expected: string[], reversed: string[]][] = [
    ['Patient', sorted((r) => r.nameKey), sorted((r) => r.nameKey, true)],
    ['Products', sorted((r) => r.products), sorted((r) => r.products, true)],
    ['Supply', sorted((r) => r.supply), sorted((r) => r.supply, true)],
    ['Shipping', sorted((r) => r.shipping), sorted((r) => r.shipping, true)],
    ['Last order', sorted((r) => r.lastOrder, true), sorted((r) => r.lastOrder)],
    ['Next refill', sorted((r) => r.refill), sorted((r) => r.refill, true)],
    // Every protocol is synced: by seq, either way.
    ['Sync', sorted(() => 0), sorted(() => 0, true)],
    ['Changed', sorted((r) => r.seq, true), sorted((r) => r.seq)],
  ];
  for (const [column, expected, reversed] of checks) {
    await list.sort(app, column).click();
    await expectSettled(app);
    await expect(list.sort(app, column)).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => topNames(app), { message: column }).toEqual(expected.slice(0, TOP));
    await list.sort(app, column).click();
    await expectSettled(app);
    await expect
      .poll(() => topNames(app), { message: `${column}, reversed` })
      .toEqual(reversed.slice(0, TOP));
  }
  await expect(list.count(app)).toHaveText(`${count(COUNT)} protocols`);
  // A third click goes back to the list's default order: the last change first.
  await list.sort(app, 'Supply').click();
  await list.sort(app, 'Supply').click();
  await list.sort(app, 'Supply').click();
  await expectSettled(app);
  await expect(list.sort(app, 'Changed')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => topNames(app)).toEqual(sorted((r) => r.seq, true).slice(0, TOP));

  // The end of the list by next refill, read page after page (keyset pages on the column).
  await list.sort(app, 'Next refill').click();
  await expectSettled(app);
  const byRefill = sorted((r) => r.refill);
  const scroller = app.locator('.list-scroller');
  await expect
    .poll(
      async () => {
        await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        return (await list.names(app)).at(-1);
      },
      { timeout: 30_000 },
    )
    .toBe(byRefill.at(-1));
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));

  // Who ran out: the refill filter, sorted soonest first, with the count.
  const ranOut = rows.filter((r) => r.refill < Date.now());
  expect(ranOut.length).toBeGreaterThan(100);
  await app.getByRole('combobox', { name: 'Refill' }).selectOption({ label: 'Ran out' });
  await expectSettled(app);
  await expect(list.count(app)).toHaveText(`${count(ranOut.length)} protocols match`);
  await expect
    .poll(() => topNames(app))
    .toEqual(sorted((r) => r.refill, false, ranOut).slice(0, TOP));
  await saveScreen(app, testInfo, 'protocols-columns-ran-out');
  const within30 = rows.filter((r) => r.refill < now + 31 * DAY);
  await app.getByRole('combobox', { name: 'Refill' }).selectOption({ label: 'Due within 30 days' });
  await expect(list.count(app)).toHaveText(`${count(within30.length)} protocols match`);
  await app.getByRole('combobox', { name: 'Refill' }).selectOption({ label: 'Any time' });
  await expect(list.count(app)).toHaveText(`${count(COUNT)} protocols`);

  await expectNoAxeBlockersInBothThemes(app, testInfo, 'protocols-columns', { screenshot: true });

  // Keyboard: a header is a button in the Tab order; Enter sorts by it.
  await list.sort(app, 'Supply').focus();
  await app.keyboard.press('Enter');
  await expectSettled(app);
  await expect(list.sort(app, 'Supply')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => topNames(app)).toEqual(sorted((r) => r.supply).slice(0, TOP));

  // The columns chosen stay chosen after the window reloads.
  const chooser = app.locator('details.column-chooser');
  await chooser.locator('summary').click();
  await chooser.getByRole('checkbox', { name: 'Shipping' }).uncheck();
  await chooser.getByRole('checkbox', { name: 'Changed' }).uncheck();
  await expect(header(app).getByRole('button', { name: /^Shipping/ })).toBeHidden();
  await expect(list.rows(app).first().locator('.protocol-cell-shipping')).toBeHidden();
  await app.reload();
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  await expect(list.count(app)).toHaveText(`${count(COUNT)} protocols`);
  await expect(header(app).getByRole('button', { name: /^Products/ })).toBeVisible();
  await expect(header(app).getByRole('button', { name: /^Shipping/ })).toBeHidden();
  await expect(header(app).getByRole('button', { name: /^Changed/ })).toBeHidden();
  await chooser.locator('summary').click();
  await expect(chooser.getByRole('checkbox', { name: 'Shipping' })).not.toBeChecked();
  await chooser.getByRole('checkbox', { name: 'Shipping' }).check();
  await expect(header(app).getByRole('button', { name: /^Shipping/ })).toBeVisible();
  await saveScreen(app, testInfo, 'protocols-columns-chooser', { fullPage: false });
  // Escape closes it, the focus back on its button; a click elsewhere closes it too.
  await app.keyboard.press('Escape');
  await expect(chooser.getByRole('checkbox', { name: 'Shipping' })).toBeHidden();
  await expect(chooser.locator('summary')).toBeFocused();
  await chooser.locator('summary').click();
  await expect(chooser.getByRole('checkbox', { name: 'Shipping' })).toBeVisible();
  await app.getByRole('heading', { level: 1, name: 'Protocols' }).click();
  await expect(chooser.getByRole('checkbox', { name: 'Shipping' })).toBeHidden();

  // The smallest window the app supports: every column chosen is still there (the list scrolls
  // sideways in its own region: the test below).
  await app.setViewportSize({ width: 1024, height: 700 });
  for (const column of ['Supply', 'Shipping', 'Next refill'])
    await expect(header(app).getByRole('button', { name: new RegExp(`^${column}`) })).toBeVisible();
  await saveScreen(app, testInfo, 'protocols-columns-1024', { fullPage: false });
});

const LABELS = [
  'Patient',
  'Products',
  'Supply',
  'Shipping',
  'Last order',
  'Next refill',
  'Changed',
  'Sync',
];
const CELLS = ['patient', ...ProtocolColumn.options];

/**
 * Column `i`'s header button and its cell in the list's first row, both shown: the boxes of the
 * header's cell (around the button) and of the row's.
 */
async function column(page: Page, i: number) {
  const button = list.sort(page, LABELS[i]!);
  const cell = list.rows(page).first().locator(`.protocol-cell-${CELLS[i]}`);
  await expect(button).toBeVisible();
  await expect(cell).toBeVisible();
  const head = header(page).locator(`.protocol-cell-${CELLS[i]}`);
  // The first row may be drawn again between two reads (its protocol just synced): read both
  // boxes until both are there.
  type Box = NonNullable<Awaited<ReturnType<Locator['boundingBox']>>>;
  let boxes: { button: Box; cell: Box } | null = null;
  await expect
    .poll(async () => {
      const [b, c] = await Promise.all([head.boundingBox(), cell.boundingBox()]);
      boxes = b && c ? { button: b, cell: c } : null;
      return boxes !== null;
    })
    .toBe(true);
  return boxes!;
}
const right = (box: { x: number; width: number }) => box.x + box.width;

test('every column chosen shows whatever the window: all eight at 1280 px; at 1024 px the list scrolls sideways, its header along', async ({
  app,
  host,
}, testInfo) => {
  await app.setViewportSize({ width: 1280, height: 800 });
  await connectToProtocols(app);
  draftLocally(
    host,
    Array.from({ length: 14 }, (_, i) => i),
  );
  await expect(list.count(app)).toHaveText('14 protocols');
  // The default sort is the last change first: its column is there to say so.
  await expect(list.sort(app, 'Changed')).toHaveAttribute('aria-pressed', 'true');
  const wide = (await app.locator('.protocol-table').boundingBox())!;
  for (let i = 0; i < LABELS.length; i++) {
    const { button, cell } = await column(app, i);
    // In the list's box without scrolling, and under its header.
    expect(cell.x, LABELS[i]).toBeGreaterThanOrEqual(wide.x);
    expect(right(cell), LABELS[i]).toBeLessThanOrEqual(right(wide));
    // (The patient's link reaches 8 px left of its column, as its focus ring needs.)
    expect(Math.abs(button.x - cell.x), `${LABELS[i]} under its header`).toBeLessThanOrEqual(8);
  }
  await saveScreen(app, testInfo, 'protocols-columns-1280', { fullPage: false });

  // 1024 px: no column dropped; the list, not the window, scrolls sideways, its header along.
  await app.setViewportSize({ width: 1024, height: 700 });
  const main = (await app.getByRole('main').boundingBox())!;
  const narrow = (await app.locator('.protocol-table').boundingBox())!;
  expect(right(narrow)).toBeLessThanOrEqual(right(main));
  for (let i = 0; i < LABELS.length; i++) await column(app, i);
  const scroller = app.locator('.protocol-table .list-scroller');
  await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  for (const i of [6, 7]) {
    await expect
      .poll(async () => {
        const { button, cell } = await column(app, i);
        return Math.round(button.x - cell.x);
      }, `${LABELS[i]} under its header`)
      .toBe(0);
    const { cell } = await column(app, i);
    expect(cell.x, LABELS[i]).toBeGreaterThanOrEqual(narrow.x);
    expect(right(cell), LABELS[i]).toBeLessThanOrEqual(right(narrow));
  }
  await saveScreen(app, testInfo, 'protocols-columns-1024-scrolled', { fullPage: false });
  // Back at the left, Tab to the Sync header scrolls the header to it, and the rows follow.
  await scroller.evaluate((el) => el.scrollTo({ left: 0 }));
  await expect.poll(async () => right((await column(app, 7)).cell)).toBeGreaterThan(right(narrow));
  await list.sort(app, 'Sync').focus();
  await expect
    .poll(async () => {
      const { button, cell } = await column(app, 7);
      return [Math.round(button.x - cell.x), right(cell) <= right(narrow)];
    })
    .toEqual([0, true]);
});
