import type { Page } from '@playwright/test';
import { localDay } from '@shared/dashboard-views';
import { moneyToCents, centsToMoney } from '@shared/money';
import { isStanding } from '@shared/order-outcome';
import { refillsDue } from '@main/orders/refills';
import { expect, test, type BrowserHost } from '@test/support/e2e/fixtures';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { ipc } from '@test/support/e2e/editor';
import {
  cancelOrder,
  draftProtocol,
  patientBody,
  placeOrder,
  rememberPastOrder,
} from '@test/support/e2e/local-orders';
import { saveScreen } from '@test/support/e2e/screens';

const patient = (k: string) => ({ sourceId: `dash-${k}`, firstName: k, lastName: 'Dashboard' });

/** Orders this month and in months before, one cancelled, protocols for the refills, a batch. */
async function seed(host: BrowserHost, page: Page) {
  const ids = ['Ada', 'Bob', 'Cy', 'Di', 'Eve'].map((k) =>
    draftProtocol(host, patientBody(patient(k))),
  );
  const ada = await placeOrder(host, patientBody(patient('Ada'), 30));
  await placeOrder(host, patientBody(patient('Bob'), 30));
  const cy = await placeOrder(host, patientBody(patient('Cy'), 30));
  await cancelOrder(host, cy.id);
  rememberPastOrder(host, ada, 'ord_e2e_dash_past1', 45);
  rememberPastOrder(host, ada, 'ord_e2e_dash_past2', 100);
  // Di's supply (30 days, 20 days ago) runs out in 10 days.
  rememberPastOrder(
    host,
    { ...ada, customer: { ...ada.customer, ...patient('Di') } },
    'ord_e2e_dash_di',
    20,
  );
  await ipc(page, 'batches.submit', { protocolLocalIds: [ids[4]], concurrency: 1 });
}

/** What the store holds, summed here: this local month's standing and cancelled orders. */
function monthFromStore(host: BrowserHost, now: number) {
  const rows = host.core.store.db.prepare('SELECT status, created_at, body FROM orders').all() as {
    status: string;
    created_at: number;
    body: string;
  }[];
  const month = localDay(now).slice(0, 7);
  const sums = {
    standing: 0,
    standingCents: 0,
    cancelled: 0,
    cancelledCents: 0,
    months: new Set<string>(),
  };
  for (const r of rows) {
    if (localDay(r.created_at).slice(0, 7) !== month) continue;
    const cents = moneyToCents((JSON.parse(r.body) as { totalPrice: string }).totalPrice);
    if (isStanding(r.status)) {
      sums.standing += 1;
      sums.standingCents += cents;
    } else {
      sums.cancelled += 1;
      sums.cancelledCents += cents;
    }
  }
  return sums;
}

const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
    Number(centsToMoney(cents)),
  );

test('the dashboard shows the sums of the store, follows a change, and opens a refill day', async ({
  app,
  host,
}, testInfo) => {
  // The app opens on the dashboard; its shortcut brings it back from another screen.
  await connectLocalSandbox(app);
  await seed(host, app);
  await app.keyboard.press('Control+1');
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();

  await app.keyboard.press('Control+Shift+D');
  await expect(app.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(ui.sidebar(app).getByRole('link', { name: /^Dashboard/ })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // This month's row of the tables behind the charts: the store's own sums.
  const now = Date.now();
  const counts = app.getByRole('table', { name: /^Orders per month/ });
  const totals = app.getByRole('table', { name: /^Total per month/ });
  const thisMonth = (table: typeof counts) => table.locator('tbody tr').last();
  await expect(async () => {
    const want = monthFromStore(host, now);
    await expect(thisMonth(counts).locator('[data-figure="orders"]')).toHaveText(
      String(want.standing),
      { timeout: 1000 },
    );
    await expect(thisMonth(counts).locator('[data-figure="cancelled"]')).toHaveText(
      String(want.cancelled),
      { timeout: 1000 },
    );
    await expect(thisMonth(totals).locator('[data-figure="total"]')).toHaveText(
      money(want.standingCents),
      { timeout: 1000 },
    );
  }).toPass({ timeout: 30_000 });
  expect(monthFromStore(host, now).cancelled).toBe(1);
  await expect(counts.locator('tbody tr')).toHaveCount(12);

  // The batch of a moment ago.
  await expect(app.locator('[data-figure="batches"]')).toHaveText('1');
  await expect(app.locator('[data-figure="created"]')).toHaveText('1', { timeout: 30_000 });

  // Refills by day: the Refills due rule, read from the store.
  const due = refillsDue(host.core.store, Date.now(), 30).due.filter((r) => r.daysLeft >= 0);
  const refills = app.getByRole('table', { name: /^Refills coming due by day/ });
  const shown = (await refills.locator('[data-figure="refills"]').allTextContents()).map(Number);
  expect(shown.reduce((a, b) => a + b, 0)).toBe(due.length);

  // A cancellation elsewhere: the figures follow without a reload.
  const before = monthFromStore(host, now);
  const bob = host.core.store.orders
    .list({ search: 'dash-Bob', limit: 10 })
    .find((o) => o.status !== 'CANCELLED')!;
  await cancelOrder(host, bob.id);
  await expect(thisMonth(counts).locator('[data-figure="cancelled"]')).toHaveText(
    String(before.cancelled + 1),
  );
  await expect(thisMonth(counts).locator('[data-figure="orders"]')).toHaveText(
    String(before.standing - 1),
  );

  // Screenshots at the smallest window and a wide one; axe in both themes.
  await app.setViewportSize({ width: 1024, height: 700 });
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'dashboard', { screenshot: true });
  await app.setViewportSize({ width: 2560, height: 1440 });
  await saveScreen(app, testInfo, 'dashboard-wide');
  await app.setViewportSize({ width: 1280, height: 800 });

  // By keyboard: the day Di's supply runs out opens those refills to review.
  const diDay = localDay(
    refillsDue(host.core.store, Date.now(), 30).due.find(
      (r) => r.lastOrderId === 'ord_e2e_dash_di',
    )!.runsOutAt,
  );
  const dayLink = refills.locator(`a[href="#/refills/${diDay}"]`);
  await dayLink.focus();
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Refills due' })).toBeVisible();
  await expect(app.getByText(/^Only the supplies that run out on/)).toBeVisible();
  const rows = app.getByRole('table', { name: /^Protocols whose supply runs out/ });
  await expect(rows.locator('tbody th[scope="row"]')).toContainText(['Di Dashboard']);

  // Settings: keep the protocols first; the app then opens on them.
  await app.keyboard.press('Control+7');
  await app.getByRole('radio', { name: 'Protocols' }).check();
  await app.goto(host.url);
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
});
