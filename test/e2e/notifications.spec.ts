import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { axeBlockers, expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { embeddedControls, patientBody, placeOrder } from '@test/support/e2e/local-orders';
import { saveScreen } from '@test/support/e2e/screens';

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });

type Bridge = {
  orderDesk: { on(event: string, listener: (e: { orderId: string }) => void): () => void };
  nextOrderStatus?: Promise<string>;
};

/**
 * Starts listening for the next order-status event in the page (after the app's own listeners,
 * which subscribed at start); `arrived` resolves with its order id.
 */
async function listenForOrderStatus(page: Page) {
  await page.evaluate(() => {
    const g = globalThis as unknown as Bridge;
    g.nextOrderStatus = new Promise<string>((resolve) => {
      const off = g.orderDesk.on('order-status', (e) => {
        off();
        resolve(e.orderId);
      });
    });
  });
  return {
    arrived: () =>
      page.evaluate(() => (globalThis as unknown as Bridge).nextOrderStatus ?? 'not listening'),
  };
}

test('a shipped order shows a notification; with the setting off, none', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  await connectLocalSandbox(app);
  const controls = await embeddedControls(host, keychainService);
  const patient = { sourceId: 'notify-1', firstName: 'Nora', lastName: 'Quill' };

  // Shipped on the server; the app reads it (as its poller would) and tells the window.
  const first = await placeOrder(host, patientBody(patient));
  await controls.advance(first.id, 'SHIPPED');
  await host.core.session!.orders.refreshOrder(first.id);
  const toast = toasts(app).getByRole('status').filter({ hasText: 'Order shipped' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText(`${first.id} for Nora Quill is on its way`);
  await saveScreen(app, testInfo, 'notification-order-shipped', { fullPage: false });
  await toast.getByRole('link', { name: 'Open the order' }).click();
  await expect(app).toHaveURL(new RegExp(`#/orders/${first.id}$`));
  await expect(toast).toBeHidden();

  // The setting, in Settings, turns them off; main remembers it.
  await app.keyboard.press('Control+7');
  await expect(app.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const setting = app.getByRole('switch', { name: 'Notify me about orders and batches' });
  await expect(setting).toBeChecked();
  await setting.uncheck();
  await expect(setting).not.toBeChecked();
  await saveScreen(app, testInfo, 'settings-notifications-off');
  await expect.poll(async () => (await app.evaluate(readNotificationsSetting)) ?? null).toBe(false);
  await app.reload();
  await expect(setting).not.toBeChecked();

  const second = await placeOrder(host, patientBody(patient));
  // The poller may read it first: either way one order-status event reaches the window.
  const listener = await listenForOrderStatus(app);
  await controls.advance(second.id, 'SHIPPED');
  await host.core.session!.orders.refreshOrder(second.id);
  // The event reached the window (after the notifier, which subscribed first), and said nothing.
  expect(await listener.arrived()).toBe(second.id);
  await app.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const g = globalThis as unknown as { requestAnimationFrame(f: () => void): number };
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
      }),
  );
  await expect(toasts(app).getByText('Order shipped')).toHaveCount(0);

  // Back on: the next one is announced again.
  await setting.check();
  await expect(setting).toBeChecked();
  const third = await placeOrder(host, patientBody(patient));
  await controls.advance(third.id, 'SHIPPED');
  await host.core.session!.orders.refreshOrder(third.id);
  await expect(toasts(app).getByText(`${third.id} for Nora Quill is on its way`)).toBeVisible();
});

test('the history finds every past notification again, newest first, from the keyboard too', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  // Two axe runs with the dialog open, in both themes.
  test.setTimeout(120_000);
  await connectLocalSandbox(app);
  const controls = await embeddedControls(host, keychainService);
  const orders = [];
  for (let i = 0; i < 2; i++) {
    const o = await placeOrder(
      host,
      patientBody({ sourceId: `history-${i}`, firstName: `H${i}`, lastName: 'Story' }),
    );
    await controls.advance(o.id, 'SHIPPED');
    await host.core.session!.orders.refreshOrder(o.id);
    orders.push(o);
  }
  // Their toasts gone (dismissed here), the header still says they are unread.
  const dismiss = toasts(app).getByRole('button', { name: 'Dismiss notification' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await expect(toasts(app).getByText('Order shipped')).toHaveCount(0);
  const unread = app.getByRole('button', { name: /^Notifications, \d+ unread$/ });
  await expect(unread).toBeVisible();
  await unread.click();
  const history = app.getByRole('dialog', { name: 'Notifications' });
  await expect(history).toBeVisible();
  const shipped = history
    .getByRole('list', { name: 'Past notifications' })
    .getByRole('listitem')
    .filter({ hasText: 'Order shipped' });
  await expect(shipped).toHaveCount(2);
  await expect(shipped.nth(0)).toContainText(`${orders[1]!.id} for H1 Story`);
  await expect(shipped.nth(1)).toContainText(`${orders[0]!.id} for H0 Story`);
  await expect(shipped.nth(0).locator('time')).toHaveAttribute('datetime', /^\d{4}-/);
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'notification-history', {
    screenshot: () => saveScreen(app, testInfo, 'notification-history', { fullPage: false }),
  });

  // An entry leads where its toast did; the history closes, everything in it read.
  await shipped.nth(1).getByRole('link', { name: 'Open the order' }).click();
  await expect(history).toBeHidden();
  await expect(app).toHaveURL(new RegExp(`#/orders/${orders[0]!.id}$`));
  const button = app.getByRole('button', { name: 'Notifications', exact: true });
  await expect(button).toBeVisible();

  // From the keyboard: open it, Clear, Escape; the focus comes back to the button.
  await button.focus();
  await app.keyboard.press('Enter');
  await expect(history).toBeVisible();
  await history.getByRole('button', { name: 'Clear' }).focus();
  await app.keyboard.press('Enter');
  await expect(history).toContainText('No notifications yet in this session.');
  await app.keyboard.press('Escape');
  await expect(history).toBeHidden();
  await expect(button).toBeFocused();
});

test('toasts stay off the order detail, a few at a time, the rest in the history', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  await connectLocalSandbox(app);
  const controls = await embeddedControls(host, keychainService);
  const orders = [];
  for (let i = 0; i < 5; i++) {
    const who = { sourceId: `stack-${i}`, firstName: `S${i}`, lastName: 'Stack' };
    orders.push(await placeOrder(host, patientBody(who)));
  }
  // An order's detail open beside the queue, as a clinic works.
  await ui.sidebar(app).getByRole('link', { name: 'Orders', exact: true }).click();
  const queue = app.getByRole('list', { name: 'Orders' });
  await queue.getByRole('link', { name: new RegExp(`order ${orders[0]!.id},`) }).click();
  const detail = app.getByRole('region', { name: 'Order details' });
  await expect(detail.getByRole('heading', { level: 2 })).toBeVisible();

  for (const o of orders) {
    await controls.advance(o.id, 'SHIPPED');
    await host.core.session!.orders.refreshOrder(o.id);
  }
  const shipped = toasts(app).getByRole('status').filter({ hasText: 'Order shipped' });
  // The newest three show; the other two are counted, a way to the history.
  await expect(shipped).toHaveCount(3);
  await expect(shipped.last()).toContainText(`${orders[4]!.id} for S4 Stack`);
  const more = toasts(app).getByRole('button', { name: /^\+2 more/ });
  await expect(more).toBeVisible();
  // Nothing of the detail is under them: the toasts sit over the queue beside it.
  const [region, detailBox] = await Promise.all([toasts(app).boundingBox(), detail.boundingBox()]);
  expect(region!.x + region!.width).toBeLessThanOrEqual(detailBox!.x);
  await saveScreen(app, testInfo, 'notifications-beside-detail', { fullPage: false });

  await more.click();
  const history = app.getByRole('dialog', { name: 'Notifications' });
  await expect(history.getByRole('listitem').filter({ hasText: 'Order shipped' })).toHaveCount(5);
});

test('toasts stay off the order detail whose screen came late, at 1280 and 1024 px', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  // The queue's code is held back until the order's address is open, as on a slow clinic PC:
  // the toasts must still find the detail once it is drawn. (Routing turns the cache off.)
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await app.route(/\/assets\/OrdersScreen-[\w-]+\.(js|css)$/, async (route) => {
    await held;
    await route.continue();
  });
  await app.reload();
  await connectLocalSandbox(app);
  const controls = await embeddedControls(host, keychainService);
  const orders = [];
  for (let i = 0; i < 6; i++) {
    const who = { sourceId: `late-${i}`, firstName: `L${i}`, lastName: 'Late' };
    orders.push(await placeOrder(host, patientBody(who)));
  }
  await app.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#/orders/${orders[0]!.id}`);
  // Longer than the toasts' own second look (250 ms) after a navigation.
  await app.waitForTimeout(1_000);
  release();
  const detail = app.getByRole('region', { name: 'Order details' });
  await expect(detail.getByRole('heading', { level: 2 })).toBeVisible();
  const shipped = toasts(app).getByRole('status').filter({ hasText: 'Order shipped' });
  const actions = detail.locator('.order-actions');
  for (const [k, size] of [
    { width: 1280, height: 800 },
    { width: 1024, height: 700 },
  ].entries()) {
    await app.setViewportSize(size);
    // Three orders shipped while the detail is read at this size.
    for (const o of orders.slice(3 * k, 3 * k + 3)) {
      await controls.advance(o.id, 'SHIPPED');
      await host.core.session!.orders.refreshOrder(o.id);
    }
    await expect(shipped.last()).toContainText(`for L${3 * k + 2} Late`);
    await expect(shipped).toHaveCount(3);
    const [region, pane] = await Promise.all([toasts(app).boundingBox(), detail.boundingBox()]);
    expect(
      region!.x + region!.width,
      `the toasts beside the detail at ${size.width} px`,
    ).toBeLessThanOrEqual(pane!.x);
    // No toast box over the detail's actions (Dosing schedule, Refresh).
    const button = (await actions.boundingBox())!;
    for (const toast of await shipped.all()) {
      const box = (await toast.boundingBox())!;
      expect(box.x + box.width <= button.x || box.y + box.height <= button.y).toBe(true);
    }
    await saveScreen(app, testInfo, `notifications-late-screen-${size.width}`, { fullPage: false });
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`the notifications setting and its toast pass axe, ${theme} theme`, async ({
    page,
    host,
    keychainService,
  }, testInfo) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await connectLocalSandbox(page);
    await page.keyboard.press('Control+7');
    await expect(
      page.getByRole('switch', { name: 'Notify me about orders and batches' }),
    ).toBeChecked();
    const controls = await embeddedControls(host, keychainService);
    const order = await placeOrder(
      host,
      patientBody({ sourceId: 'notify-axe', firstName: 'Ada', lastName: 'Axe' }),
    );
    await controls.advance(order.id, 'SHIPPED');
    await host.core.session!.orders.refreshOrder(order.id);
    await expect(toasts(page).getByText('Order shipped')).toBeVisible();
    await saveScreen(page, testInfo, `${theme}-settings-notifications`);
    expect(await axeBlockers(page, testInfo, `${theme}-settings-notifications`)).toEqual([]);
  });
}

/** app.state's notifications, read through the page's bridge. */
async function readNotificationsSetting(): Promise<boolean | undefined> {
  const bridge = (
    globalThis as unknown as {
      orderDesk: {
        call(c: string, a: object): Promise<{ ok: boolean; value?: { notifications: boolean } }>;
      };
    }
  ).orderDesk;
  const result = await bridge.call('app.state', {});
  return result.value?.notifications;
}
