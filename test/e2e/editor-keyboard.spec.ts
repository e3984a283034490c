import { expect, test } from '@test/support/e2e/fixtures';

import { axeBlockers } from '@test/support/e2e/axe';
import { tabTo } from '@test/support/e2e/batches';
import {
  addProduct,
  connectEmbedded,
  editor,
  fillPatient,
  goTo,
  orderDialog,
  savedLocalId,
  setDoses,
} from '@test/support/e2e/editor';
import { pageErrors } from '@test/support/e2e/layout';
import { saveScreen } from '@test/support/e2e/screens';

const PACK = 'Magnesium Glycinate 120 mg';
const EXTERNAL = 'Whey-Free Protein Powder, Vanilla';

test('the editor with the keyboard only: New protocol, fields in order, a product picked from the search, doses, Ctrl+S saves, Order now sends; the focus never falls to the page', async ({
  app,
}, testInfo) => {
  const errors = pageErrors(app);
  await connectEmbedded(app);
  const k = app.keyboard;
  const focused = app.locator(':focus');
  const heading = (name: string | RegExp) => app.getByRole('heading', { level: 1, name });

  // From the protocols, New protocol: the focus goes to the editor's heading, and the first
  // field is one Tab away.
  await k.press('Control+1');
  await expect(heading('Protocols')).toBeFocused();
  await tabTo(app, app.getByRole('link', { name: 'New protocol' }).first());
  await k.press('Enter');
  await expect(heading('New protocol')).toBeFocused();
  await k.press('Tab');
  await expect(focused).toHaveAccessibleName('First name');
  const typeAndTab = async (name: string, text: string) => {
    await expect(focused).toHaveAccessibleName(name);
    await k.type(text);
    await k.press('Tab');
  };
  await typeAndTab('First name', 'Keyboard');
  await typeAndTab('Last name', 'User');
  await typeAndTab('Patient ID', 'PAT-KEY-1');
  await typeAndTab('Email (optional)', 'key@example.com');
  await typeAndTab('Phone (optional)', '');
  await typeAndTab('Address line 1', '1 Tab Street');
  await typeAndTab('Address line 2 (optional)', '');
  await typeAndTab('City', 'Enterville');
  // The state is a list of names: typing a name picks it.
  await typeAndTab('State', 'texas');
  await typeAndTab('ZIP code', '77001');

  // Days supply and order type are radio groups: arrows choose.
  await expect(focused).toHaveAccessibleName('30 days');
  await k.press('ArrowRight');
  await expect(app.getByRole('radio', { name: '60 days' })).toBeChecked();
  await k.press('Tab');
  await expect(focused).toHaveAccessibleName('One time');
  await k.press('ArrowRight');
  await expect(app.getByRole('radio', { name: 'Subscription' })).toBeChecked();
  await k.press('Tab');
  await expect(focused).toHaveAccessibleName('Shipping method');
  await k.press('ArrowDown');
  await expect(app.getByLabel('Shipping method')).toHaveValue('EXPRESS');
  await k.press('Tab');

  // The product search: type, arrows, Enter adds the highlighted product.
  await expect(focused).toHaveAccessibleName('Add a product');
  await k.type('magnesium glycinate');
  const option = app.getByRole('option', { name: new RegExp(`^${PACK}`) });
  await expect(option).toBeVisible();
  await k.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await k.press('Enter');
  await expect(editor.line(app, PACK)).toBeVisible();
  await expect(focused).toHaveAccessibleName('Add a product');

  // Back to the doses of the new line.
  await k.press('Shift+Tab');
  await expect(focused).toHaveAccessibleName('Bedtime');
  await k.press('Control+A');
  await k.type('3');
  await expect(editor.sum(app, PACK)).toHaveText('4');
  await saveScreen(app, testInfo, 'editor-keyboard');

  await k.press('Control+S');
  await savedLocalId(app);
  // Saved, the protocol opens at its own address: the focus is on its heading.
  await expect(heading('Protocol for Keyboard User')).toBeFocused();
  await expect(app.getByLabel('State', { exact: true })).toHaveValue('TX');
  await expect(app.getByRole('radio', { name: 'Subscription' })).toBeChecked();

  // Order now, confirmed by keyboard: Order now is disabled while the order is followed, so the
  // focus goes to the order's progress, and from there to the created order.
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'synced', {
    timeout: 20_000,
  });
  await tabTo(app, app.getByRole('button', { name: 'Order now' }));
  await k.press('Enter');
  const dialog = orderDialog(app);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await k.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Send 1 order' })).toBeFocused();
  await k.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(app.locator('.order-progress-box')).toBeFocused();
  const progress = app.locator('.order-progress');
  await expect(progress).toHaveAttribute('data-order', 'created', { timeout: 30_000 });
  await expect(app.locator('.order-progress-box')).toBeFocused();
  await k.press('Tab');
  await expect(progress.getByRole('link')).toBeFocused();
  await k.press('Enter');
  await expect(heading('Orders')).toBeFocused();
  await expect(app.getByRole('region', { name: 'Order details' })).toContainText('Keyboard User');
  expect(errors, 'uncaught errors and console errors').toEqual([]);
});

test('keyboard only, no click at all: connect, type a protocol, add a product by its name and Enter at once, save, order', async ({
  app,
}) => {
  const errors = pageErrors(app);
  const k = app.keyboard;
  const focused = app.locator(':focus');
  const heading = (name: string | RegExp) => app.getByRole('heading', { level: 1, name });
  // The first run offers the built-in sandbox, chosen: Tab to its button and Enter.
  await expect(heading('Welcome to Order Desk')).toBeVisible();
  await tabTo(app, app.getByRole('button', { name: 'Use the local sandbox' }));
  await k.press('Enter');
  await expect(heading('Dashboard')).toBeVisible({ timeout: 20_000 });

  await k.press('Control+1');
  await expect(heading('Protocols')).toBeFocused();
  await tabTo(app, app.getByRole('link', { name: 'New protocol' }).first());
  await k.press('Enter');
  await expect(heading('New protocol')).toBeFocused();
  await k.press('Tab');
  for (const [name, text] of [
    ['First name', 'Enter'],
    ['Last name', 'Only'],
    ['Patient ID', 'PAT-KEY-2'],
    ['Email (optional)', ''],
    ['Phone (optional)', ''],
    ['Address line 1', '2 Return Road'],
    ['Address line 2 (optional)', ''],
    ['City', 'Salem'],
    ['State', 'oregon'],
    ['ZIP code', '97301'],
  ] as const) {
    await expect(focused).toHaveAccessibleName(name);
    await k.type(text);
    await k.press('Tab');
  }
  await tabTo(app, editor.picker(app), 10);
  // The product's name and Enter at once, before the search has listed it (the list opens on
  // the unfiltered catalog, read when the box got the focus).
  await expect(app.getByRole('img', { name: 'Searching' })).toHaveCount(0);
  await k.type('Magnesium Glycinate');
  await k.press('Enter');
  await expect(app.locator('.line-item .line-item-name')).toHaveText([PACK]);
  await expect(editor.picker(app)).toBeFocused();

  await k.press('Control+S');
  await savedLocalId(app);
  await expect(heading('Protocol for Enter Only')).toBeFocused();
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'synced', {
    timeout: 20_000,
  });
  await tabTo(app, app.getByRole('button', { name: 'Order now' }));
  await k.press('Enter');
  const dialog = orderDialog(app);
  await expect(dialog).toContainText(`${PACK}: 2 pills a day`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await k.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Send 1 order' })).toBeFocused();
  await k.press('Enter');
  const progress = app.locator('.order-progress');
  await expect(progress).toHaveAttribute('data-order', 'created', { timeout: 30_000 });
  await expect(app.locator('.order-progress-box')).toBeFocused();
  await k.press('Tab');
  await expect(progress.getByRole('link')).toBeFocused();
  await k.press('Enter');
  const details = app.getByRole('region', { name: 'Order details' });
  await expect(details).toContainText('Enter Only');
  await expect(details).toContainText(PACK);
  expect(errors, 'uncaught errors and console errors').toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violations in the editor, ${theme} theme`, async ({
    page,
    host,
  }, testInfo) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    const blockers: Record<string, string[]> = {};
    const check = async (screen: string, include?: string) => {
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await saveScreen(page, testInfo, `${theme}-${screen}`, { fullPage: !include });
      const found = await axeBlockers(page, testInfo, `${theme}-${screen}`, include);
      blockers[screen] = found.map(
        (f) => `${f.impact} ${f.id}: ${f.help} (${f.targets.join(', ')})`,
      );
    };
    await connectEmbedded(page);
    await goTo(page, '#/protocols/new');
    await editor.save(page).click();
    await expect(editor.field(page, 'First name')).toHaveAttribute('aria-invalid', 'true');
    await check('editor-errors');

    await fillPatient(editor.form(page), {
      firstName: 'Axe',
      lastName: 'Checker',
      sourceId: 'PAT-AXE',
      email: 'bad@',
    });
    await addProduct(page, PACK);
    // A line with a status note (backordered), and a search listing a product it refuses.
    await addProduct(page, 'Probiotic 50B');
    await addProduct(page, EXTERNAL);
    await setDoses(page, PACK, [0, 0, 0, 0]);
    await editor.picker(page).fill('glucosamine');
    await expect(
      page.getByRole('listbox', { name: 'Products' }).locator('[aria-disabled="true"]'),
    ).toContainText('Discontinued: it cannot be ordered');
    await check('editor-lines-and-search');
    await editor.picker(page).press('Escape');

    await setDoses(page, PACK, [1, 0, 0, 1]);
    await editor.field(page, 'Email (optional)').fill('axe@example.com');
    await editor
      .line(page, 'Probiotic 50B')
      .getByRole('button', { name: /^Remove/ })
      .click();
    await editor.save(page).click();
    await savedLocalId(page);
    await expect(editor.syncStatus(page)).toHaveAttribute('data-sync', 'synced', {
      timeout: 20_000,
    });
    await check('editor-saved');

    await page.getByRole('button', { name: 'Duplicate for another patient' }).click();
    await check('editor-duplicate-dialog', 'dialog');
    await page.keyboard.press('Escape');

    await editor.field(page, 'First name').fill('Changed');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Orders/ })
      .click();
    await expect(page.getByRole('alertdialog', { name: 'Leave without saving?' })).toBeVisible();
    await check('editor-leave-dialog', 'dialog');

    expect(blockers).toEqual({
      'editor-errors': [],
      'editor-lines-and-search': [],
      'editor-saved': [],
      'editor-duplicate-dialog': [],
      'editor-leave-dialog': [],
    });
  });
}
