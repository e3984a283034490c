import type { Locator } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  expectConnected,
  expectFirstRunConnect,
  fillPartnerForm,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import {
  addProduct,
  catalogSaysActive,
  connectEmbedded,
  editor,
  fillPatient,
  goTo,
  ipc,
  orderDialog,
  savedLocalId,
} from '@test/support/e2e/editor';
import { saveScreen } from '@test/support/e2e/screens';
import { listAllOrders } from '@test/support/sandbox-orders';

const PACK = 'Magnesium Glycinate 120 mg';

/**
 * Whether a select's chosen option is shown whole: its text, in the select's font, fits inside
 * the box beside its padding and the drop-down arrow.
 */
function shownInFull(select: Locator): Promise<boolean> {
  return select.evaluate((el) => {
    const box = el as unknown as {
      selectedOptions: { text: string }[];
      clientWidth: number;
      ownerDocument: {
        createElement(tag: 'canvas'): {
          getContext(kind: '2d'): { font: string; measureText(t: string): { width: number } };
        };
        defaultView: {
          getComputedStyle(e: unknown): { font: string; paddingLeft: string; paddingRight: string };
        };
      };
    };
    const style = box.ownerDocument.defaultView.getComputedStyle(el);
    const ctx = box.ownerDocument.createElement('canvas').getContext('2d');
    ctx.font = style.font;
    const text = ctx.measureText(box.selectedOptions[0]?.text ?? '').width;
    const ARROW = 20;
    const room =
      box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW;
    return text <= room;
  });
}
const EXTERNAL = 'Whey-Free Protein Powder, Vanilla';

test('duplicate for another patient: the dialog asks for the new patient, and the copy opens with the same order', async ({
  app,
}, testInfo) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await fillPatient(editor.form(app), {
    firstName: 'Rosalind',
    lastName: 'Franklin',
    sourceId: 'PAT-DUP-1',
  });
  await addProduct(app, PACK);
  await addProduct(app, EXTERNAL);
  await app.getByRole('radio', { name: '60 days' }).check();
  await editor.save(app).click();
  const original = await savedLocalId(app);

  await app.getByRole('button', { name: 'Duplicate for another patient' }).click();
  const dialog = app.getByRole('dialog', { name: 'Duplicate for another patient' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('First name', { exact: true })).toHaveValue('');
  // The State box is wide enough for what it shows ("Choose a state"), never cut.
  const state = dialog.getByLabel('State', { exact: true });
  await expect(state).toHaveValue('');
  expect(await shownInFull(state)).toBe(true);
  await dialog.getByRole('button', { name: 'Make the copy' }).click();
  await expect(dialog.getByLabel('First name', { exact: true })).toHaveAccessibleDescription(
    'Required',
  );
  await saveScreen(app, testInfo, 'editor-duplicate-dialog-errors');
  await fillPatient(dialog, {
    firstName: 'Dorothy',
    lastName: 'Hodgkin',
    sourceId: 'PAT-DUP-2',
    email: 'dorothy@example.com',
  });
  await dialog.getByRole('button', { name: 'Make the copy' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    app.getByRole('heading', { level: 1, name: 'Protocol for Dorothy Hodgkin' }),
  ).toBeVisible();
  const copy = await savedLocalId(app);
  expect(copy).not.toBe(original);
  await expect(editor.field(app, 'Patient ID')).toHaveValue('PAT-DUP-2');
  await expect(editor.field(app, 'Email (optional)')).toHaveValue('dorothy@example.com');
  await expect(editor.line(app, PACK)).toBeVisible();
  await expect(editor.line(app, EXTERNAL)).toBeVisible();
  await expect(app.getByRole('radio', { name: '60 days' })).toBeChecked();
  await saveScreen(app, testInfo, 'editor-duplicated');
});

test('Order now asks first: cancelled, nothing is sent; confirmed, exactly one order, shown on the editor; a new order from scratch asks too', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, partnerSandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');

  await goTo(app, '#/protocols/new');
  await fillPatient(editor.form(app), {
    firstName: 'Katherine',
    lastName: 'Johnson',
    sourceId: 'PAT-ORDER-1',
  });
  await addProduct(app, PACK);
  await editor.save(app).click();
  await savedLocalId(app);
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'synced', {
    timeout: 20_000,
  });

  const orderNow = app.getByRole('button', { name: 'Order now' });
  await orderNow.click();
  // The confirmation of a batch of one: patient, products, supply and shipping, the estimate.
  const dialog = orderDialog(app);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('One order is created on Clinic test server');
  await expect(dialog).toContainText('Katherine Johnson');
  await expect(dialog).toContainText('PAT-ORDER-1');
  await expect(dialog).toContainText(`${PACK}: 2 pills a day`);
  await expect(dialog).toContainText('30 days, Standard shipping, one time');
  await expect(dialog.getByTestId('confirm-total')).toHaveText(/^\$\d+\.\d{2}$/);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await saveScreen(app, testInfo, 'editor-order-now-confirm', { fullPage: false });

  // Cancelled: nothing is sent, nothing is queued, and the editor is as it was.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(orderNow).toBeFocused();
  await expect(app.locator('.order-progress')).toHaveCount(0);
  expect(await ipc(app, 'batches.list', {})).toEqual({ ok: true, value: [] });
  expect(
    (await listAllOrders(partnerSandbox)).filter((o) => o.customer.sourceId === 'PAT-ORDER-1'),
  ).toEqual([]);

  // Confirmed: sent once, and the result is where the user is looking.
  await orderNow.click();
  await orderDialog(app).getByRole('button', { name: 'Send 1 order' }).click();
  await expect(orderDialog(app)).toBeHidden();
  const progress = app.locator('.order-progress');
  await expect(progress).toHaveAttribute('data-order', 'created', { timeout: 30_000 });
  await expect(progress).toBeInViewport();
  const link = progress.getByRole('link');
  await expect(link).toHaveAttribute('href', /#\/orders\/.+/);
  await expect(orderNow).toBeDisabled();
  await saveScreen(app, testInfo, 'editor-order-now-created');
  const mine = (await listAllOrders(partnerSandbox)).filter(
    (o) => o.customer.sourceId === 'PAT-ORDER-1',
  );
  expect(mine).toHaveLength(1);
  await expect(link).toHaveText(mine[0]!.id);

  // From scratch: the same editor, placed once.
  await goTo(app, '#/new-order');
  await expect(app.getByRole('heading', { level: 1, name: 'New order' })).toBeVisible();
  await fillPatient(editor.form(app), {
    firstName: 'Dorothy',
    lastName: 'Vaughan',
    sourceId: 'PAT-ORDER-2',
  });
  await addProduct(app, EXTERNAL);
  await saveScreen(app, testInfo, 'editor-new-order');
  await app.getByRole('button', { name: 'Place order' }).click();
  await expect(orderDialog(app)).toContainText('Dorothy Vaughan');
  await expect(orderDialog(app)).toContainText(`${EXTERNAL}: 1 per 30 days`);
  await orderDialog(app).getByRole('button', { name: 'Send 1 order' }).click();
  await expect(progress).toHaveAttribute('data-order', 'created', { timeout: 30_000 });
  await expect(app.getByRole('button', { name: 'Start another order' })).toBeVisible();
  await saveScreen(app, testInfo, 'editor-new-order-created');
  const all = await listAllOrders(partnerSandbox);
  expect(all.filter((o) => o.customer.sourceId === 'PAT-ORDER-2')).toHaveLength(1);
  expect(all.filter((o) => o.customer.sourceId === 'PAT-ORDER-1')).toHaveLength(1);
});

test('a new order the server refuses says why on the product line, and once fixed it is placed', async ({
  app,
  host,
}, testInfo) => {
  await connectEmbedded(app);
  await goTo(app, '#/new-order');
  await fillPatient(editor.form(app), {
    firstName: 'Barbara',
    lastName: 'McClintock',
    sourceId: 'PAT-ORDER-422',
  });
  const discontinued = 'Glucosamine & Chondroitin';
  // The picker does not offer a discontinued product; a catalog behind the server's still does.
  catalogSaysActive(host, 1028);
  await addProduct(app, discontinued);
  await app.getByRole('button', { name: 'Place order' }).click();
  await saveScreen(app, testInfo, 'editor-new-order-confirm', { fullPage: false });
  await orderDialog(app).getByRole('button', { name: 'Send 1 order' }).click();
  const line = editor.line(app, discontinued);
  // Refused by the server, in plain words on the product's line.
  await expect(line.locator('.field-error')).toContainText(`${discontinued} is discontinued`, {
    timeout: 30_000,
  });
  await saveScreen(app, testInfo, 'editor-new-order-refused');
  await line.getByRole('button', { name: `Remove ${discontinued}` }).click();
  await addProduct(app, PACK);
  await app.getByRole('button', { name: 'Place order' }).click();
  await orderDialog(app).getByRole('button', { name: 'Send 1 order' }).click();
  await expect(app.locator('.order-progress')).toHaveAttribute('data-order', 'created', {
    timeout: 30_000,
  });
});

test('after Place order succeeds, leaving the new order asks nothing, in the app or when the window closes', async ({
  app,
}) => {
  await connectEmbedded(app);
  await goTo(app, '#/new-order');
  await fillPatient(editor.form(app), {
    firstName: 'Lise',
    lastName: 'Meitner',
    sourceId: 'PAT-ORDER-LEAVE',
  });
  await addProduct(app, PACK);
  await app.getByRole('button', { name: 'Place order' }).click();
  await orderDialog(app).getByRole('button', { name: 'Send 1 order' }).click();
  await expect(app.locator('.order-progress')).toHaveAttribute('data-order', 'created', {
    timeout: 30_000,
  });

  // Closing the window would not ask: the page's beforeunload lets it go.
  expect(
    await app.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      (globalThis as unknown as { dispatchEvent(e: Event): boolean }).dispatchEvent(event);
      return event.defaultPrevented;
    }),
  ).toBe(false);
  await ui
    .sidebar(app)
    .getByRole('link', { name: /^Orders/ })
    .click();
  await expect(app.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(app.getByRole('alertdialog', { name: 'Leave without saving?' })).toHaveCount(0);
});
