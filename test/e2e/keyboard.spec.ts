import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e/fixtures';
import {
  expectConnected,
  expectFirstRunConnect,
  expectProductsListed,
  ui,
} from '../support/e2e/app';

/** Presses Tab (or Shift+Tab) until the focused element has this accessible text; at most `max` times. */
async function tabTo(page: Page, text: string | RegExp, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const el = page.locator(':focus');
    const focused =
      (await el.count()) === 1
        ? ((await el.getAttribute('aria-label')) ?? (await el.innerText())).trim()
        : '';
    if (typeof text === 'string' ? focused === text : text.test(focused)) return;
  }
  throw new Error(`no focusable element "${String(text)}" within ${max} Tab presses`);
}

test('keyboard only: connect, move through the sidebar, and use the rotate dialog', async ({
  app,
  host,
}) => {
  await expectFirstRunConnect(app);

  // First run: Tab reaches the server choice (the local sandbox is selected) and its button.
  await app.keyboard.press('Tab');
  await expect(app.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await tabTo(app, 'Use the local sandbox');
  await app.keyboard.press('Enter');
  await expectConnected(app, 'Local sandbox');
  await expect(ui.sidebar(app).getByRole('link', { name: 'Protocols' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await app.keyboard.press('Control+6');
  await expectProductsListed(app);
  await host.core.session!.client.updatePartnerSettings({
    webhookUrl: 'https://clinic.example/webhooks/orders',
  });

  // The sidebar: Tab into it, arrows move between its links, Enter opens one.
  const nav = ui.sidebar(app);
  await tabTo(app, /^Catalog/);
  await expect(nav.getByRole('link', { name: 'Catalog' })).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeFocused();
  await app.keyboard.press('End');
  await expect(nav.getByRole('link', { name: 'Connection' })).toBeFocused();
  await app.keyboard.press('ArrowDown'); // wraps around
  await expect(nav.getByRole('link', { name: 'Protocols' })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(nav.getByRole('link', { name: 'Connection' })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');

  // The screen shortcuts: Ctrl+1..8 in sidebar order.
  await app.keyboard.press('Control+8');
  await expect(app.getByRole('heading', { level: 1, name: 'Connection' })).toBeVisible();
  await app.keyboard.press('Control+5');
  await expect(app.getByRole('heading', { level: 1, name: 'Conflicts' })).toBeVisible();
  await app.keyboard.press('Control+1');
  await expect(nav.getByRole('link', { name: 'Protocols' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await app.keyboard.press('Control+6');
  await expect(app.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();

  // The product list: Tab reaches it, arrows move between products, Enter opens one.
  const products = ui.productList(app).getByRole('link');
  await tabTo(app, /^5-HTP 100 mg/);
  await expect(products.first()).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('ArrowDown');
  await expect(products.nth(2)).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(products.nth(1)).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(
    ui.productDetails(app).getByRole('heading', { level: 2, name: 'Alpha-Lipoic Acid 300 mg' }),
  ).toBeVisible();
  await expect(products.nth(1)).toHaveAttribute('aria-current', 'page');

  // The rotate dialog, by keyboard (the webhook URL was set on the server before Settings opened).
  const before = await host.core.session!.client.getWebhookSecret();
  await app.keyboard.press('Control+7');
  await expect(app.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const rotateButton = app.getByRole('button', { name: 'Rotate secret…' });
  await expect(rotateButton).toBeVisible();
  await tabTo(app, 'Rotate secret…');
  await app.keyboard.press('Enter');
  const dialog = app.getByRole('alertdialog', { name: 'Rotate the webhook secret?' });
  await expect(dialog).toBeVisible();
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  const confirm = dialog.getByRole('button', { name: 'Rotate secret' });
  await expect(cancel).toBeFocused(); // the safe choice first
  await app.keyboard.press('Tab');
  await expect(confirm).toBeFocused();
  await app.keyboard.press('Tab'); // focus stays inside the dialog
  await expect(cancel).toBeFocused();
  await app.keyboard.press('Shift+Tab');
  await expect(confirm).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(rotateButton).toBeFocused(); // focus goes back where it was
  expect(await host.core.session!.client.getWebhookSecret()).toBe(before);

  await app.keyboard.press('Enter');
  await expect(cancel).toBeFocused();
  await app.keyboard.press('Tab');
  await app.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(app.getByRole('region', { name: 'Webhook secret' })).toContainText(
    'New secret created',
  );
  expect(await host.core.session!.client.getWebhookSecret()).not.toBe(before);
});
