import { expect, test } from '@test/support/e2e/fixtures';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { draftProtocol, patientBody, placeOrder } from '@test/support/e2e/local-orders';
import { saveScreen } from '@test/support/e2e/screens';

const ADA = { sourceId: 'pt-palette-ada', firstName: 'Ada', lastName: 'Palette' };
const HEDY = { sourceId: 'pt-palette-hedy', firstName: 'Hedy', lastName: 'Remote' };

test('the palette reaches a patient, an order and a screen, and runs Sync now, by keyboard only', async ({
  app,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await connectLocalSandbox(app);
  draftProtocol(host, patientBody(ADA, 30));
  const order = await placeOrder(host, patientBody(ADA, 60));
  const palette = app.getByRole('dialog', { name: 'Go to or run' });
  const box = palette.getByRole('combobox');

  // A patient, by part of the name and the Patient ID's tail.
  await app.keyboard.press('Control+K');
  await expect(box).toBeFocused();
  await app.keyboard.type('palette ada');
  const patient = palette.getByRole('option', { name: /Ada Palette.*Patient · pt-palette-ada/ });
  await expect(patient).toHaveAttribute('aria-selected', 'true');
  await expect(palette.getByRole('option', { name: /Protocol · pt-palette-ada/ })).toBeVisible();
  await expect(palette.getByRole('option', { name: new RegExp(order.id) })).toBeVisible();
  await saveScreen(app, testInfo, 'command-palette');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'command-palette');
  await app.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(app.getByRole('heading', { level: 1, name: 'Ada Palette' })).toBeFocused();

  // The patient is on top next time, before anything is typed.
  await app.keyboard.press('Control+K');
  await expect(palette.getByRole('group', { name: 'Recent' })).toContainText('Ada Palette');

  // An order, by its id.
  await app.keyboard.type(order.id);
  await expect(palette.getByRole('option', { name: new RegExp(order.id) })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await app.keyboard.press('Enter');
  await expect(app).toHaveURL(new RegExp(`#/orders/${order.id}$`));

  // A protocol, picked with the arrow keys, then a command of its own screen: its schedule.
  await app.keyboard.press('Control+K');
  await app.keyboard.type('pt-palette-ada');
  const protocol = palette.getByRole('option', { name: /Protocol · pt-palette-ada/ });
  await expect(protocol).toBeVisible();
  for (let i = 0; i < 5 && (await protocol.getAttribute('aria-selected')) !== 'true'; i++)
    await app.keyboard.press('ArrowDown');
  await expect(protocol).toHaveAttribute('aria-selected', 'true');
  await app.keyboard.press('Enter');
  await expect(
    app.getByRole('heading', { level: 1, name: 'Protocol for Ada Palette' }),
  ).toBeVisible();
  await app.keyboard.press('Control+K');
  await app.keyboard.type('dosing schedule');
  await expect(
    palette.getByRole('option', { name: /Print the dosing schedule of Ada Palette/ }),
  ).toHaveAttribute('aria-selected', 'true');
  await app.keyboard.press('Enter');
  await expect(app).toHaveURL(/#\/protocols\/[^/]+\/schedule$/);

  // A screen, fuzzy: "actvty" is Activity.
  await app.keyboard.press('Control+K');
  await app.keyboard.type('actvty');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();

  // Sync now pulls a protocol another desk made on the server.
  await host.core.session!.client.createProtocol(patientBody(HEDY, 30));
  await app.keyboard.press('Control+K');
  await app.keyboard.type('sync now');
  await expect(palette.getByRole('option', { name: /Sync now/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await app.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect
    .poll(() => host.core.store.protocols.search('pt-palette-hedy', 5).length, { timeout: 15_000 })
    .toBe(1);

  // Escape closes it and gives the focus back.
  await ui.sidebar(app).getByRole('link', { name: 'Orders', exact: true }).focus();
  await app.keyboard.press('Control+K');
  await expect(box).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await expect(ui.sidebar(app).getByRole('link', { name: 'Orders', exact: true })).toBeFocused();
});
