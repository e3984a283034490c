import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  expectConnected,
  expectFirstRunConnect,
  expectProductsListed,
  ui,
} from '@test/support/e2e/app';
import { addProduct, editor, fillPatient, savedLocalId } from '@test/support/e2e/editor';
import { pageErrors } from '@test/support/e2e/layout';
import { draftProtocol, patientBody } from '@test/support/e2e/local-orders';

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
  await expect(ui.sidebar(app).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
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
  await expect(nav.getByRole('link', { name: 'Activity' })).toBeFocused();
  await app.keyboard.press('ArrowDown'); // wraps around, to the dashboard first
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(nav.getByRole('link', { name: 'Activity' })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(nav.getByRole('link', { name: 'Patients' })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(nav.getByRole('link', { name: 'Connection' })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');

  // The screen shortcuts: Ctrl+1..9 in sidebar order.
  await app.keyboard.press('Control+9');
  await expect(app.getByRole('heading', { level: 1, name: 'Patients' })).toBeVisible();
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

/** The new screen's h1 has the focus (not the page body, not the link that was pressed). */
async function expectHeadingFocused(page: Page, name: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name })).toBeFocused();
}

test('every navigation moves the focus to the new screen’s heading: shortcuts, sidebar, New protocol, Ctrl+S, Review batch, Send', async ({
  app,
  host,
}) => {
  const errors = pageErrors(app);
  await expectFirstRunConnect(app);
  await app.getByRole('button', { name: 'Use the local sandbox' }).click();
  await expectConnected(app, 'Local sandbox');
  // The shell's first screen, after Connect (whose button is gone).
  await expectHeadingFocused(app, 'Dashboard');
  await expectProductsListed(app);
  draftProtocol(host, patientBody({ sourceId: 'focus-ada', firstName: 'Ada', lastName: 'Focus' }));

  // Ctrl+1..8, in sidebar order; the same shortcut again leaves the focus alone.
  const headings = [
    'Protocols',
    'Orders',
    'Batches',
    'Refills due',
    'Conflicts',
    'Catalog',
    'Settings',
    'Connection',
  ];
  for (const [i, name] of headings.entries()) {
    await app.keyboard.press(`Control+${i + 1}`);
    await expectHeadingFocused(app, name);
  }

  // The sidebar, by mouse and by keyboard.
  const nav = ui.sidebar(app);
  await nav.getByRole('link', { name: 'Refills due' }).click();
  await expectHeadingFocused(app, 'Refills due');
  await nav.getByRole('link', { name: 'Batches' }).focus();
  await app.keyboard.press('Enter');
  await expectHeadingFocused(app, 'Batches');

  // New protocol, then Ctrl+S in a field saves it and opens it at its own address.
  await nav.getByRole('link', { name: 'Protocols' }).click();
  await expectHeadingFocused(app, 'Protocols');
  await app.getByRole('link', { name: 'New protocol' }).click();
  await expectHeadingFocused(app, 'New protocol');
  await fillPatient(editor.form(app), { firstName: 'Grace', lastName: 'Focus', sourceId: 'F-2' });
  await addProduct(app, 'Magnesium Glycinate 120 mg');
  await editor.field(app, 'ZIP code').press('Control+S');
  await savedLocalId(app);
  await expectHeadingFocused(app, 'Protocol for Grace Focus');

  // Review batch, then Send: the review and the batch's run view.
  await app.keyboard.press('Control+1');
  await expectHeadingFocused(app, 'Protocols');
  await app.getByRole('checkbox', { name: /^Select Ada Focus \(/ }).check();
  await app.getByRole('button', { name: 'Review batch (1)' }).click();
  await expectHeadingFocused(app, 'Review the batch');
  await expect(app.getByTestId('review-included')).toHaveText('1', { timeout: 20_000 });
  await app.getByRole('button', { name: 'Submit 1 order…' }).click();
  await app
    .getByRole('dialog', { name: 'Send 1 order?' })
    .getByRole('button', { name: 'Send 1 order' })
    .click();
  await expectHeadingFocused(app, 'Order for Ada Focus');

  // Within one screen (an order chosen beside the queue) the focus stays on what was chosen.
  await app.keyboard.press('Control+2');
  await expectHeadingFocused(app, 'Orders');
  const row = app.getByRole('list', { name: 'Orders' }).getByRole('link').first();
  await row.click();
  await expect(
    app.getByRole('region', { name: 'Order details' }).getByRole('heading', { level: 2 }),
  ).toBeVisible();
  await expect(row).toBeFocused();
  expect(errors, 'uncaught errors and console errors').toEqual([]);
});
