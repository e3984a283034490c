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
  pickerOption,
  savedLocalId,
  setDoses,
} from '@test/support/e2e/editor';
import { saveScreen } from '@test/support/e2e/screens';
import { startTestSandbox } from '@test/support/sandbox';
import { priceOrder } from '@shared/pricing';

const PACK = 'Magnesium Glycinate 120 mg';
const EXTERNAL = 'Whey-Free Protein Powder, Vanilla';
const DISCONTINUED = 'Glucosamine & Chondroitin';

const usd = (amount: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));

test('a protocol with a pack and an external product: messages on the fields, doses add up to the quantity, the price preview, saved and synced', async ({
  app,
}, testInfo) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await expect(app.getByRole('heading', { level: 1, name: 'New protocol' })).toBeVisible();
  await expect(editor.preview(app).getByRole('heading', { name: 'Price' })).toBeVisible();

  // Saving an empty protocol puts each rule on its field.
  await editor.save(app).click();
  await expect(editor.field(app, 'First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.form(app).getByText('At least one line item')).toBeVisible();
  await expect(editor.form(app).locator('.field-error', { hasText: 'Required' })).toHaveCount(5);
  await saveScreen(app, testInfo, 'editor-empty-errors');

  // Messages follow the typing.
  await fillPatient(editor.form(app), {
    firstName: 'Ada',
    lastName: 'Lovelace',
    sourceId: 'PAT-ADA-1',
    email: 'ada@',
    zipCode: '972',
  });
  const email = editor.field(app, 'Email (optional)');
  await expect(email).toHaveAccessibleDescription('Enter an email address');
  await expect(editor.field(app, 'ZIP code')).toHaveAccessibleDescription(/Exactly 5 digits/);
  await email.fill('ada@example.com');
  await expect(email).not.toHaveAttribute('aria-invalid');
  await editor.field(app, 'ZIP code').fill('97201');
  await expect(editor.field(app, 'ZIP code')).not.toHaveAttribute('aria-invalid');

  // A pack product: four doses, whose sum is the quantity.
  await addProduct(app, PACK);
  await expect(editor.sum(app, PACK)).toHaveText('2'); // its recommended usage, 0-0-1-1
  await setDoses(app, PACK, [0, 0, 0, 0]);
  await expect(editor.line(app, PACK)).toContainText('At least 1 (the sum of the four doses)');
  await setDoses(app, PACK, [2, 0, 1, 1]);
  await expect(editor.sum(app, PACK)).toHaveText('4');
  await expect(editor.line(app, PACK).locator('.field-error')).toHaveCount(0);
  await editor.dose(app, PACK, 'Afternoon').fill('x');
  await expect(editor.dose(app, PACK, 'Afternoon')).toHaveAccessibleDescription(
    'Enter a whole number',
  );
  await editor.dose(app, PACK, 'Afternoon').fill('0');

  // An external product: a quantity and no doses.
  await addProduct(app, EXTERNAL);
  await expect(editor.line(app, EXTERNAL).getByLabel('Morning')).toHaveCount(0);
  await expect(editor.line(app, EXTERNAL).getByLabel('Quantity')).toHaveValue('1');

  // The preview is the shared pricing of what is on screen (partner discount 15%).
  const expected = priceOrder({
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    discountValue: 0.15,
    lineItems: [
      { quantity: 4, price: '0.18', external: false },
      { quantity: 1, price: '54.00', external: true },
    ],
  });
  await expect(editor.total(app)).toHaveText(usd(expected.totalPrice));
  expect(expected.totalPrice).toBe('76.85');
  const preview = editor.preview(app);
  await expect(preview).toContainText(usd(expected.subtotalPrice));
  await expect(preview).toContainText(usd(expected.totalFees));
  await expect(preview).toContainText(usd(expected.totalShipping));

  // 90 days, overnight: the volume discount and the shipping follow.
  await app.getByRole('radio', { name: '90 days' }).check();
  await app.getByLabel('Shipping method').selectOption('OVERNIGHT');
  const longer = priceOrder({
    daysSupply: 90,
    shippingMethod: 'OVERNIGHT',
    discountValue: 0.15,
    lineItems: [
      { quantity: 4, price: '0.18', external: false },
      { quantity: 1, price: '54.00', external: true },
    ],
  });
  await expect(editor.total(app)).toHaveText(usd(longer.totalPrice));
  await expect(preview).toContainText(`−${usd(longer.totalVolumeDiscount)}`);
  await saveScreen(app, testInfo, 'editor-filled');

  await editor.save(app).click();
  const localId = await savedLocalId(app);
  await expect(
    app.getByRole('heading', { level: 1, name: 'Protocol for Ada Lovelace' }),
  ).toBeVisible();
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'synced', {
    timeout: 20_000,
  });
  await expect(editor.sum(app, PACK)).toHaveText('4');
  await saveScreen(app, testInfo, 'editor-saved-synced');

  const view = await ipc<{
    ok: true;
    value: { draft: { lineItems: unknown[]; daysSupply: number; shippingMethod: string } };
  }>(app, 'protocols.get', { localId });
  expect(view.value.draft.daysSupply).toBe(90);
  expect(view.value.draft.shippingMethod).toBe('OVERNIGHT');
  expect(view.value.draft.lineItems).toEqual([
    expect.objectContaining({
      quantity: 4,
      administration: { morning: 2, afternoon: 0, evening: 1, sleep: 1 },
    }),
    expect.objectContaining({ quantity: 1, administration: null }),
  ]);
});

test('drafted with the partner sandbox unreachable: pending, then synced when it is back, and on the server', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, partnerSandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');
  const port = partnerSandbox.port;

  await partnerSandbox.close();
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  await expect(ui.banner(app).getByText('Offline', { exact: true })).toBeVisible();

  await goTo(app, '#/protocols/new');
  await expect(app.getByRole('status').filter({ hasText: 'Offline:' })).toBeVisible();
  await fillPatient(editor.form(app), {
    firstName: 'Grace',
    lastName: 'Hopper',
    sourceId: 'PAT-OFFLINE-7',
  });
  await addProduct(app, PACK);
  await expect(editor.preview(app).getByRole('heading', { name: 'Estimated price' })).toBeVisible();
  await editor.save(app).click();
  await savedLocalId(app);
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'pending');
  await expect(editor.syncStatus(app)).toContainText('It will be sent when the server is back.');
  await saveScreen(app, testInfo, 'editor-pending-offline');

  const back = await startTestSandbox({ port });
  try {
    await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'synced', {
      timeout: 90_000,
    });
    await saveScreen(app, testInfo, 'editor-synced-after-outage');
    const list = await back.api<{ protocols: { customer: { sourceId: string } }[] }>(
      'GET',
      '/v1/protocols?limit=100',
    );
    expect(list.status).toBe(200);
    expect(list.body.protocols.map((p) => p.customer.sourceId)).toEqual(['PAT-OFFLINE-7']);
  } finally {
    await back.close();
  }
});

test('a protocol the server refuses (422) shows the reason on the product line', async ({
  app,
  host,
}, testInfo) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await fillPatient(editor.form(app), {
    firstName: 'Alan',
    lastName: 'Turing',
    sourceId: 'PAT-422',
  });
  // The picker lists a discontinued product disabled, with the reason, and does not add it.
  const refused = await pickerOption(app, DISCONTINUED);
  await expect(refused).toHaveAttribute('aria-disabled', 'true');
  await expect(refused).toContainText('Discontinued: it cannot be ordered');
  await saveScreen(app, testInfo, 'editor-picker-discontinued');
  await refused.click({ force: true });
  await expect(editor.line(app, DISCONTINUED)).toHaveCount(0);
  // Its first results are what can be ordered: active products, before any other.
  await editor.picker(app).fill('');
  const options = app.getByRole('listbox', { name: 'Products' }).getByRole('option');
  await expect(options.first()).not.toHaveAttribute('aria-disabled', 'true');
  await expect(options.last()).not.toContainText('cannot be ordered');

  // A catalog behind the server's: the product is offered, and the server refuses it.
  catalogSaysActive(host, 1028);
  await addProduct(app, DISCONTINUED);
  await editor.save(app).click();
  await savedLocalId(app);
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'rejected', {
    timeout: 20_000,
  });
  // The refusal is the news: no "Protocol saved" toast stays beside it.
  await expect(
    app.getByRole('region', { name: 'Notifications' }).getByText('Protocol saved.'),
  ).toHaveCount(0);
  const line = editor.line(app, DISCONTINUED);
  await expect(line.locator('.field-error')).toContainText(`${DISCONTINUED} is discontinued`);
  await saveScreen(app, testInfo, 'editor-rejected-422');

  // Fixed in the editor: the product is replaced, saved again, and synced.
  await line.getByRole('button', { name: `Remove ${DISCONTINUED}` }).click();
  await addProduct(app, PACK);
  await editor.save(app).click();
  await expect(editor.syncStatus(app)).toHaveAttribute('data-sync', 'synced', {
    timeout: 20_000,
  });
});

test('leaving the editor moves once: one history entry per move, and Back returns to the editor', async ({
  app,
}) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await expect(app.getByRole('heading', { level: 1, name: 'New protocol' })).toBeVisible();
  const before = await app.evaluate(
    () => (globalThis as unknown as { history: { length: number } }).history.length,
  );
  // By the sidebar, then by the keyboard shortcut: each a single move (no navigation loop).
  await ui
    .sidebar(app)
    .getByRole('link', { name: /^Orders/ })
    .click();
  await expect(app.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  expect(
    await app.evaluate(
      () => (globalThis as unknown as { history: { length: number } }).history.length,
    ),
  ).toBe(before + 1);
  await app.goBack();
  await expect(app.getByRole('heading', { level: 1, name: 'New protocol' })).toBeVisible();
  await app.keyboard.press('Control+6');
  await expect(app.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();
  await app.goBack();
  await expect(app.getByRole('heading', { level: 1, name: 'New protocol' })).toBeVisible();
  await expect(app).toHaveURL(/#\/protocols\/new$/);
});

test("Back after saving a new protocol returns to the list once: the saved protocol takes the new one's place in the history", async ({
  app,
}) => {
  await connectEmbedded(app);
  const heading = (name: string | RegExp) => app.getByRole('heading', { level: 1, name });
  const sidebar = (name: RegExp) => ui.sidebar(app).getByRole('link', { name }).click();
  await sidebar(/^Catalog/);
  await expect(heading('Catalog')).toBeVisible();
  await sidebar(/^Orders/);
  await expect(heading('Orders')).toBeVisible();
  await sidebar(/^Protocols/);
  await expect(heading('Protocols')).toBeVisible();
  await app.getByRole('link', { name: 'New protocol' }).first().click();
  await expect(heading('New protocol')).toBeVisible();
  await fillPatient(editor.form(app), {
    firstName: 'Grace',
    lastName: 'Hopper',
    sourceId: 'PAT-BACK-1',
  });
  await addProduct(app, PACK);
  await editor.save(app).click();
  await savedLocalId(app);
  await expect(heading('Protocol for Grace Hopper')).toBeVisible();

  // Catalog, Orders, Protocols, the saved protocol: Back walks them once, in order.
  for (const screen of ['Protocols', 'Orders', 'Catalog']) {
    await app.goBack();
    await expect(heading(screen)).toBeVisible();
  }
  await app.goForward();
  await expect(heading('Orders')).toBeVisible();
  await app.goForward();
  await expect(heading('Protocols')).toBeVisible();
  await app.goForward();
  await expect(heading('Protocol for Grace Hopper')).toBeVisible();
});

test('leaving with unsaved changes asks first, inside the app and when the window closes', async ({
  app,
}, testInfo) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await editor.field(app, 'First name').fill('Unsaved');
  await ui
    .sidebar(app)
    .getByRole('link', { name: /Catalog/ })
    .click();
  const ask = app.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await saveScreen(app, testInfo, 'editor-leave-guard');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(editor.field(app, 'First name')).toHaveValue('Unsaved');
  await expect(app).toHaveURL(/#\/protocols\/new$/);

  // The browser's Back goes through the same guard: the editor and what was typed stay.
  await app.goBack();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor.field(app, 'First name')).toHaveValue('Unsaved');
  await expect(app).toHaveURL(/#\/protocols\/new$/);

  // The keyboard shortcut goes through the same guard.
  await app.keyboard.press('Control+6');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Leave and discard changes' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();

  // Closing the window: the browser's own prompt.
  await goTo(app, '#/protocols/new');
  await editor.field(app, 'First name').fill('Unsaved again');
  const dialog = app.waitForEvent('dialog');
  await app.close({ runBeforeUnload: true });
  const prompt = await dialog;
  expect(prompt.type()).toBe('beforeunload');
  await prompt.dismiss();
  expect(app.isClosed()).toBe(false);
});

test('delete with undo: nothing is sent during the undo window; undo brings it back, and otherwise it goes', async ({
  app,
}, testInfo) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await fillPatient(editor.form(app), {
    firstName: 'Marie',
    lastName: 'Curie',
    sourceId: 'PAT-DEL-1',
  });
  await addProduct(app, PACK);
  await editor.save(app).click();
  const localId = await savedLocalId(app);

  await app.getByRole('button', { name: 'Delete' }).click();
  await expect(app).toHaveURL(/#\/protocols$/);
  const toastUndo = app
    .getByRole('region', { name: 'Notifications' })
    .getByRole('button', { name: 'Undo' });
  await expect(toastUndo).toBeVisible();
  await expect(app.getByRole('region', { name: 'Notifications' })).toContainText(
    'Deleted the protocol for Marie Curie.',
  );
  // The list no longer shows it while the undo is offered.
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  await expect(app.getByRole('main').getByText('Marie Curie')).toHaveCount(0);
  await saveScreen(app, testInfo, 'editor-deleted-undo-toast');
  const during = await ipc<{ ok: boolean; value?: { deleted: boolean } }>(app, 'protocols.get', {
    localId,
  });
  expect(during.value?.deleted).toBe(false);
  await toastUndo.click();
  await expect(app).toHaveURL(new RegExp(`#/protocols/${localId}$`));
  await expect(
    app.getByRole('heading', { level: 1, name: 'Protocol for Marie Curie' }),
  ).toBeVisible();

  // Without undo, the delete is sent when the window ends.
  await app.getByRole('button', { name: 'Delete' }).click();
  await expect(toastUndo).toBeVisible();
  await expect(toastUndo).toBeHidden({ timeout: 15_000 });
  await expect
    .poll(
      async () => {
        const r = await ipc<{ ok: boolean; value?: { deleted: boolean } }>(app, 'protocols.get', {
          localId,
        });
        return r.ok ? r.value?.deleted : 'gone';
      },
      { timeout: 15_000 },
    )
    .not.toBe(false);
});
