import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectConnected,
  fillPartnerForm,
  openCatalog,
  openProduct,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { editor } from '@test/support/e2e/editor';
import { draftProtocol, patientBody, placeOrder } from '@test/support/e2e/local-orders';
import { protocolsUi } from '@test/support/e2e/protocols';
import { saveScreen } from '@test/support/e2e/screens';

const practiceLink = (page: Page) =>
  ui.sidebar(page).getByRole('link', { name: 'Practice', exact: true });
const practiceSwitch = (page: Page) =>
  page.getByRole('switch', { name: 'Practice on the local sandbox' });
const marker = (page: Page) => ui.banner(page).getByText('Practice mode', { exact: true });

/** Opens the Connection screen from the sidebar. */
async function openConnection(page: Page): Promise<void> {
  await ui.sidebar(page).getByRole('link', { name: 'Connection', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connection' })).toBeFocused();
}

/** Switches practice mode on from the Connection screen and opens the Practice screen. */
async function startPractice(page: Page): Promise<void> {
  await openConnection(page);
  await expect(practiceLink(page)).toHaveCount(0);
  await expect(marker(page)).toHaveCount(0);
  await practiceSwitch(page).check();
  await expect(marker(page)).toBeVisible();
  await practiceLink(page).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Practice' })).toBeFocused();
}

test('practice mode moves an order to Shipped with tracking, and takes the server offline and back', async ({
  app,
  host,
}, testInfo) => {
  await app.setViewportSize({ width: 1024, height: 700 });
  await connectLocalSandbox(app);
  const order = await placeOrder(
    host,
    patientBody({ sourceId: 'P-PRACTICE', firstName: 'Paula', lastName: 'Practice' }),
  );
  await startPractice(app);

  const move = app.getByRole('form', { name: 'Move an order' });
  await expect(move.getByLabel('Order')).toHaveValue(order.id);
  await move.getByLabel('Move to').selectOption({ label: 'Shipped' });
  await move.getByRole('button', { name: 'Move order' }).click();
  const result = app.getByRole('region', { name: 'Move an order' }).getByRole('status');
  await expect(result).toContainText(`Order ${order.id} is now Shipped: shipped by`);
  await expect(result).toContainText('tracking number');
  const stored = host.core.store.orders.get(order.id);
  expect(stored?.status).toBe('SHIPPED');
  expect(stored?.fulfillmentInfo?.trackingNumber).toBeTruthy();
  await expect(result).toContainText(stored!.fulfillmentInfo!.trackingNumber!);
  await saveScreen(app, testInfo, 'practice-moved');

  // A move the chain refuses is said as the server says it.
  await move.getByLabel('Move to').selectOption({ label: 'Processing' });
  await move.getByRole('button', { name: 'Move order' }).click();
  await expect(app.getByRole('alert').filter({ hasText: 'not ahead of it' })).toBeVisible();

  // The orders queue shows the move (the app read the order back, as any refresh).
  await ui.sidebar(app).getByRole('link', { name: 'Orders', exact: true }).click();
  await expect(
    app.getByRole('link', { name: new RegExp(`order ${order.id}.*Shipped`) }),
  ).toBeVisible();
  await expect(marker(app)).toBeVisible();

  // Offline and back: the app's own offline handling follows the sandbox.
  await practiceLink(app).click();
  await app.getByRole('button', { name: 'Take the server offline' }).click();
  await expect(ui.banner(app).getByText('Offline', { exact: true })).toBeVisible();
  await expect(app.getByText('The practice server is offline')).toBeVisible();
  await expect(app.getByRole('button', { name: 'Move order' })).toBeDisabled();
  await saveScreen(app, testInfo, 'practice-offline');
  await app.getByRole('button', { name: 'Bring the server back online' }).click();
  await expect(ui.banner(app).getByText('Online', { exact: true })).toBeVisible();
  await expect(app.getByText('The practice server is online.')).toBeVisible();

  // Slow, then failing: the app meets the server's trouble as it would a real one.
  const answers = app.getByLabel('How it answers');
  await answers.selectOption('slow');
  await expect(app.getByText('The practice server is online, and slow')).toBeVisible();
  await answers.selectOption('failing');
  await expect(app.getByText('The practice server is online, and failing')).toBeVisible();
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  await expect(ui.banner(app).getByTestId('sync-status')).toContainText('Sync failed', {
    timeout: 20_000,
  });
  await answers.selectOption('normal');
  await expect(app.getByText('The practice server is online.')).toBeVisible();

  // The partner discontinues a product: the catalog says so at once.
  const product = app.getByRole('form', { name: "Change a product's status" });
  await product
    .getByLabel('Product')
    .selectOption({ label: 'Magnesium Glycinate 120 mg (Active)' });
  await product.getByLabel('New status').selectOption({ label: 'Discontinued' });
  await product.getByRole('button', { name: 'Change the status' }).click();
  await expect(
    app.getByRole('region', { name: "A product's status" }).getByRole('status'),
  ).toHaveText('Magnesium Glycinate 120 mg is now Discontinued at the partner.');
  await expect(product.getByLabel('Product')).toContainText(
    'Magnesium Glycinate 120 mg (Discontinued)',
  );
  await openCatalog(app);
  await openProduct(app, 'Magnesium Glycinate 120 mg');
  await expect(ui.productLink(app, 'Magnesium Glycinate 120 mg')).toContainText('Discontinued');
  await practiceLink(app).click();

  await expectNoAxeBlockersInBothThemes(app, testInfo, 'practice', { screenshot: true });

  // Off again: the screen and the mark go.
  await openConnection(app);
  await practiceSwitch(app).uncheck();
  await expect(marker(app)).toHaveCount(0);
  await expect(practiceLink(app)).toHaveCount(0);
});

test('practice mode pauses the fulfillment, steps every order and sets its speed', async ({
  app,
  host,
}, testInfo) => {
  test.slow(); // it waits for the poller's next read, and checks both themes
  await app.setViewportSize({ width: 1024, height: 760 });
  await connectLocalSandbox(app);
  const order = await placeOrder(
    host,
    patientBody({ sourceId: 'P-PACE', firstName: 'Pia', lastName: 'Pace' }),
  );
  await startPractice(app);
  const controls = async () => (await host.core.active.embeddedSandbox!).sandbox.controls;
  const card = app.getByRole('region', { name: 'Fulfillment' });
  const state = card.getByRole('status').first();
  await expect(state).toHaveText(
    'Every order on its way moves a step every minute, from New to Delivered.',
  );

  await card.getByLabel('Speed').selectOption({ label: 'Slow: a step every 5 minutes' });
  await expect(state).toContainText('moves a step every 5 minutes');
  expect((await controls()).fulfillment).toEqual({ paused: false, intervalMs: 300_000 });

  await card.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(state).toHaveText('Paused: no order moves on its own until you resume.');
  expect((await controls()).fulfillment.paused).toBe(true);
  // The header says so on every screen, and resumes from there.
  await expect(ui.banner(app).getByText('Practice mode, paused')).toBeVisible();
  await expect(ui.banner(app).getByRole('button', { name: 'Resume orders' })).toBeVisible();

  // Paused, a step still moves every order on its way at once; the queue follows at the
  // poller's fast cadence (the window is shown), as it would a real partner's change.
  await card.getByRole('button', { name: 'Step now' }).click();
  await expect(card.getByRole('status').last()).toHaveText(/^\d+ orders? moved one step\.$/);
  expect(host.core.session!.poller.pace).toBe('fast');
  await saveScreen(app, testInfo, 'practice-fulfillment');
  await ui.sidebar(app).getByRole('link', { name: 'Orders', exact: true }).click();
  await expect(
    app.getByRole('link', { name: new RegExp(`order ${order.id}.*Processing`) }),
  ).toBeVisible({ timeout: 20_000 });
  expect((await controls()).fulfillment.paused).toBe(true);

  await ui.banner(app).getByRole('button', { name: 'Resume orders' }).click();
  await expect(ui.banner(app).getByRole('button', { name: 'Pause orders' })).toBeVisible();
  await expect(marker(app)).toBeVisible();
  expect((await controls()).fulfillment).toEqual({ paused: false, intervalMs: 300_000 });
  await practiceLink(app).click();
  await expect(state).toContainText('moves a step every 5 minutes');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'practice-fulfillment', {
    screenshot: true,
  });
});

test('practice mode makes a conflict: another desk changes a protocol while it is edited here', async ({
  app,
  host,
}) => {
  await connectLocalSandbox(app);
  const localId = draftProtocol(
    host,
    patientBody({ sourceId: 'P-DESK', firstName: 'Dora', lastName: 'Desk' }),
  );
  await expect
    .poll(async () => {
      await host.core.session!.sync.syncNow();
      return host.core.store.protocols.get(localId)?.syncState;
    })
    .toBe('synced');
  await startPractice(app);

  // The server goes away for this app; another desk still changes the protocol there.
  await app.getByRole('button', { name: 'Take the server offline' }).click();
  await expect(ui.banner(app).getByText('Offline', { exact: true })).toBeVisible();
  const desk = app.getByRole('form', { name: 'Change a protocol as another desk' });
  await expect(desk.getByLabel('Protocol')).toHaveValue(
    host.core.store.protocols.get(localId)!.serverId!,
  );
  await desk.getByRole('button', { name: 'Change it on the server' }).click();
  await expect(app.getByRole('region', { name: 'Another desk' }).getByRole('status')).toContainText(
    "Another desk changed Dora Desk's protocol on the server: shipping is now Express.",
  );

  // Edited here meanwhile: the change waits on this computer.
  await ui.sidebar(app).getByRole('link', { name: 'Protocols', exact: true }).click();
  await protocolsUi
    .row(app, 'Dora Desk')
    .getByRole('link', { name: /Dora Desk/ })
    .click();
  await editor.field(app, 'Shipping method').selectOption('OVERNIGHT');
  await editor.save(app).click();
  await expect(editor.syncStatus(app)).toBeVisible();

  // Back online: the app sends its change, finds the server's, and asks which to keep.
  await practiceLink(app).click();
  await app.getByRole('button', { name: 'Bring the server back online' }).click();
  await expect(ui.banner(app).getByText('Online', { exact: true })).toBeVisible();
  await expect(app.getByTestId('conflicts-count')).toHaveText('1 to resolve', { timeout: 20_000 });
  await ui.banner(app).getByRole('link', { name: '1 conflict to resolve' }).click();
  await expect(app.getByRole('region', { name: 'Dora Desk', exact: true })).toBeVisible();
});

test('practice mode is never offered on a partner sandbox connection, and main refuses its controls there', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  await app.setViewportSize({ width: 1024, height: 700 });
  await connectLocalSandbox(app);
  await openConnection(app);
  await practiceSwitch(app).check();
  await expect(practiceLink(app)).toBeVisible();
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'connection-practice', {
    screenshot: true,
  });

  await fillPartnerForm(app, partnerSandbox, 'Partner sandbox');
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Partner sandbox');
  await openConnection(app);
  await expect(practiceSwitch(app)).toHaveCount(0);
  await expect(practiceLink(app)).toHaveCount(0);
  await expect(marker(app)).toHaveCount(0);

  const refusals = await app.evaluate(async () => {
    const bridge = (
      globalThis as unknown as {
        orderDesk: {
          call(c: string, a: unknown): Promise<{ ok: boolean; error?: { message: string } }>;
        };
      }
    ).orderDesk;
    return Promise.all([
      bridge.call('practice.setEnabled', { enabled: true }),
      bridge.call('practice.setOffline', { offline: true }),
      bridge.call('practice.advanceOrder', { orderId: 'ord_1', to: 'SHIPPED' }),
      bridge.call('practice.state', {}),
    ]);
  });
  for (const refusal of refusals.slice(0, 3)) {
    expect(refusal.ok).toBe(false);
    expect(refusal.error?.message).toMatch(/only for the built-in sandbox/);
  }
  expect(refusals[3]).toEqual({
    ok: true,
    value: {
      available: false,
      enabled: false,
      offline: false,
      server: 'normal',
      fulfillment: { paused: false, speed: 'normal' },
    },
  });
});
