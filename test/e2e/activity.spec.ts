import type { Page } from '@playwright/test';
import { readCsv } from '@main/csv-text';
import { expect, test } from '@test/support/e2e/fixtures';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { tabTo } from '@test/support/e2e/batches';
import { downloaded, textOf } from '@test/support/e2e/downloads';
import { addProduct, editor, fillPatient, goTo, savedLocalId } from '@test/support/e2e/editor';
import { sidewaysOverflow } from '@test/support/e2e/layout';
import { patientBody, placeOrder } from '@test/support/e2e/local-orders';
import { saveScreen } from '@test/support/e2e/screens';

/**
 * The activity record in the browser host: the people of the desk added in Settings, the one at
 * the desk picked in the header (by mouse, and by keyboard alone), then the Activity screen
 * showing what they did, filtered by patient, person, action and days, exported as CSV, and the
 * check of its chain.
 */

const PATIENT = { sourceId: 'PAT-ACT-1', firstName: 'Zelda', lastName: 'Quillon' };
const PACK = 'Magnesium Glycinate 120 mg';

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const atDesk = (page: Page) => ui.banner(page).getByLabel('At the desk');
const entries = (page: Page) =>
  page.getByRole('list', { name: 'Activity entries, newest first' }).getByRole('article');
const entry = (page: Page, action: string) =>
  page
    .getByRole('list', { name: 'Activity entries, newest first' })
    .getByRole('article', { name: new RegExp(`^${action} #`) });
const summary = (page: Page) => page.locator('.activity-summary .summary');

/** Adds a person in Settings, as a clinic manager would. */
async function addPerson(page: Page, name: string): Promise<void> {
  const card = page.getByRole('region', { name: 'People at this desk' });
  await card.getByLabel('Name to add').fill(name);
  await card.getByRole('button', { name: 'Add person' }).click();
  await expect(card.getByRole('list', { name: 'People at this desk' })).toContainText(name);
}

async function openActivity(page: Page): Promise<void> {
  await ui.sidebar(page).getByRole('link', { name: 'Activity', exact: true }).click();
  await expect(heading(page, 'Activity')).toBeVisible();
}

test('the person at the desk is named on what they do; the record filtered, exported and intact', async ({
  app,
  host,
}, testInfo) => {
  test.setTimeout(180_000);
  await connectLocalSandbox(app);
  // Nobody listed: the header does not ask.
  await expect(atDesk(app)).toHaveCount(0);

  await app.keyboard.press('Control+7');
  await expect(heading(app, 'Settings')).toBeVisible();
  await addPerson(app, 'Dana Reyes');
  await addPerson(app, 'Lee Park');
  await saveScreen(app, testInfo, 'settings-people-at-desk');
  await expect(atDesk(app)).toHaveValue('');
  await atDesk(app).selectOption('Dana Reyes');
  await expect.poll(() => host.core.desk.atDesk()).toBe('Dana Reyes');

  // A protocol created and saved in the editor.
  await goTo(app, '#/protocols/new');
  await expect(heading(app, 'New protocol')).toBeVisible();
  await fillPatient(editor.form(app), PATIENT);
  await addProduct(app, PACK);
  await editor.save(app).click();
  const localId = await savedLocalId(app);

  // An order cancelled from its detail.
  const order = await placeOrder(host, patientBody(PATIENT));
  await goTo(app, `#/orders/${order.id}`);
  const detail = app.getByRole('region', { name: 'Order details' });
  await detail.getByRole('button', { name: 'Cancel order…' }).click();
  await app
    .getByRole('alertdialog', { name: 'Cancel this order?' })
    .getByRole('button', { name: 'Cancel order', exact: true })
    .click();
  await expect(
    detail.getByRole('status').filter({ hasText: 'The order is cancelled.' }),
  ).toBeVisible();

  // Both on the Activity screen, with Dana, the patient and the order as links.
  await openActivity(app);
  await expect(app.getByTestId('activity-check')).toContainText(/Record intact: \d+ entries/);
  const cancelled = entry(app, 'Order cancelled');
  await expect(cancelled).toContainText(`Dana Reyes (`);
  await expect(cancelled.getByRole('link', { name: order.id })).toHaveAttribute(
    'href',
    `#/orders/${order.id}`,
  );
  const created = entry(app, 'Protocol created');
  await expect(created).toContainText('Dana Reyes (');
  await expect(created.getByRole('link', { name: 'PAT-ACT-1' })).toHaveAttribute(
    'href',
    '#/patients/PAT-ACT-1',
  );
  await expect(created.getByRole('link', { name: `Protocol ${localId}` })).toBeVisible();
  // Nothing of the patient but the Patient ID.
  await expect(entries(app).filter({ hasText: /Zelda|Quillon/ })).toHaveCount(0);
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'activity', { screenshot: true });

  // Filtered by patient: the protocol and the order, nothing else.
  const patient = app.getByLabel('Patient ID');
  await patient.fill('PAT-ACT-1');
  await expect(summary(app)).toHaveText('2 entries match');
  await expect(entries(app)).toHaveCount(2);
  await patient.fill('');
  // By person: what Dana did (picked at the desk, the protocol, the order).
  await app.getByLabel('Person').selectOption('Dana Reyes');
  await expect(summary(app)).toHaveText('3 entries match');
  await expect(entries(app).filter({ hasNotText: 'Dana Reyes' })).toHaveCount(0);
  // By action, then by days: today has it, tomorrow nothing.
  await app.getByLabel('Action').selectOption({ label: 'Order cancelled' });
  await expect(summary(app)).toHaveText('1 entry match');
  const today = new Date();
  const day = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  await app.getByLabel('From').fill(day(today));
  await app.getByLabel('To').fill(day(today));
  await expect(summary(app)).toHaveText('1 entry match');
  await app.getByLabel('From').fill(day(new Date(today.getTime() + 86_400_000)));
  await app.getByLabel('To').fill('');
  await expect(app.getByText('No entry matches the filters.')).toBeVisible();
  await app.getByRole('button', { name: 'Clear the filters' }).click();
  await expect(summary(app)).toHaveText(/^\d+ entries$/);

  // Exported: the patient's entries, every id and hash, in the file the browser saves.
  await patient.fill('PAT-ACT-1');
  await expect(summary(app)).toHaveText('2 entries match');
  const file = await downloaded(app, () => app.getByRole('button', { name: 'Export CSV' }).click());
  expect(file.suggestedFilename()).toMatch(/^order-desk-activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const { header, rows } = readCsv(await textOf(file));
  const cell = (row: number, column: string) => rows[row]!.cells[header.indexOf(column)];
  expect(rows.map((_, i) => cell(i, 'Action'))).toEqual(['Order cancelled', 'Protocol created']);
  expect(rows.map((_, i) => cell(i, 'Staff'))).toEqual(['Dana Reyes', 'Dana Reyes']);
  expect(cell(0, 'Order IDs')).toBe(order.id);
  expect(rows.every((_, i) => cell(i, 'Patient IDs') === 'PAT-ACT-1')).toBe(true);
  expect(cell(1, 'Protocol IDs')).toBe(localId);
  expect(rows.every((_, i) => /^[0-9a-f]{64}$/.test(cell(i, 'Hash')!))).toBe(true);
  // The export is itself recorded, and the record still checks intact.
  await patient.fill('');
  await expect(entries(app).first()).toHaveAccessibleName(/^CSV exported #/);
  await expect(app.getByTestId('activity-check')).toContainText(/Record intact: \d+ entries/);
  await saveScreen(app, testInfo, 'activity');

  // The smallest supported window: nothing cut sideways, the header's picker in view.
  await app.setViewportSize({ width: 1024, height: 700 });
  expect(await sidewaysOverflow(app)).toEqual([]);
  await expect(atDesk(app)).toBeInViewport({ ratio: 1 });
  await expect(app.getByRole('button', { name: 'Sync now' })).toBeInViewport({ ratio: 1 });
  await saveScreen(app, testInfo, 'activity-1024', { fullPage: false });
});

test('the person at the desk is picked with the keyboard alone', async ({ app, host }) => {
  await connectLocalSandbox(app);
  host.core.desk.add('Dana Reyes');
  host.core.desk.add('Lee Park');
  const select = atDesk(app);
  await expect(select).toBeVisible();
  await tabTo(app, select);
  await app.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('Dana Reyes');
  await app.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('Lee Park');
  await expect.poll(() => host.core.desk.atDesk()).toBe('Lee Park');

  // The Activity screen, reached by keyboard, names Lee on the pick itself.
  await tabTo(app, ui.sidebar(app).getByRole('link', { name: 'Activity', exact: true }));
  await app.keyboard.press('Enter');
  await expect(heading(app, 'Activity')).toBeFocused();
  const first = entries(app).first();
  await expect(first).toHaveAccessibleName(/^Settings changed #/);
  await expect(first).toContainText('Lee Park (');
  // The arrows move between entries, one focus stop each.
  await tabTo(app, first);
  await app.keyboard.press('ArrowDown');
  await expect(entries(app).nth(1)).toBeFocused();
});
