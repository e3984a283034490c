import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import type { BrowserHost } from '@test/support/e2e/fixtures';
import { connectLocalSandbox, escapeRegExp, ui } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { tabTo } from '@test/support/e2e/batches';
import {
  draftProtocol,
  embeddedControls,
  patientBody,
  placeOrder,
  rememberPastOrder,
} from '@test/support/e2e/local-orders';
import { addProduct, editor, fillPatient, goTo } from '@test/support/e2e/editor';
import { sidewaysOverflow } from '@test/support/e2e/layout';
import { saveScreen } from '@test/support/e2e/screens';

const PATIENT = { sourceId: 'pt-e2e-ada', firstName: 'Ada', lastName: 'Patient' };
const OTHER = { sourceId: 'pt-e2e-bob', firstName: 'Bob', lastName: 'Other' };
const NAME = 'Ada Patient';

/**
 * Ada: three protocols (30, 60 and 90 days of the same products) and five orders: one placed
 * now and shipped, four delivered long ago. Bob: one protocol, never ordered.
 */
async function seed(host: BrowserHost, keychainService: string) {
  const protocols = ([30, 60, 90] as const).map((days) =>
    draftProtocol(host, patientBody(PATIENT, days)),
  );
  draftProtocol(host, patientBody(OTHER, 30));
  const recent = await placeOrder(host, patientBody(PATIENT, 30));
  const controls = await embeddedControls(host, keychainService);
  await controls.advance(recent.id, 'SHIPPED');
  const shipped = await host.core.session!.orders.refreshOrder(recent.id);
  expect(shipped.fulfillmentInfo).not.toBeNull();
  const past = [100, 200, 300, 400].map((daysAgo, i) =>
    rememberPastOrder(host, shipped, `ord_e2e_pt_past_${i + 1}`, daysAgo),
  );
  return { protocols, recent, past };
}

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name });
const ordersTable = (page: Page) =>
  page.getByRole('table', { name: "The patient's orders, newest first" });
const protocolsTable = (page: Page) => page.getByRole('table', { name: "The patient's protocols" });

interface Cell {
  className: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  getClientRects(): { length: number };
  getBoundingClientRect(): { height: number };
  querySelectorAll(selector: string): Iterable<Cell>;
}

/**
 * What of the patient's orders table is cramped: a cell whose content spills past it (a date or
 * a total keeps one line), an order ID on more than one line, a tracking number on more than two.
 */
function crampedOrderCells(page: Page): Promise<string[]> {
  return ordersTable(page).evaluate((node) => {
    const table = node as unknown as Cell;
    const found: string[] = [];
    const all = (selector: string) => [...table.querySelectorAll(selector)];
    for (const cell of all('th, td'))
      if (cell.scrollWidth > cell.clientWidth + 1)
        found.push(`spills: ${cell.textContent} (${cell.scrollWidth} in ${cell.clientWidth} px)`);
    for (const id of all('tbody th a.code'))
      if (id.getClientRects().length > 1) found.push(`ID on lines: ${id.textContent}`);
    for (const n of all('.patient-tracking-number'))
      if (n.getBoundingClientRect().height > 2 * 18 + 1) found.push(`tracking: ${n.textContent}`);
    return found;
  });
}

async function openAda(page: Page): Promise<void> {
  await ui
    .sidebar(page)
    .getByRole('link', { name: /Patients/ })
    .click();
  await expect(heading(page, 'Patients')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('pt-e2e-ada');
  const list = page.getByRole('list', { name: 'Patients' });
  await expect(list.getByRole('link')).toHaveCount(1);
  await list.getByRole('link', { name: new RegExp(NAME) }).click();
  await expect(heading(page, NAME)).toBeFocused();
}

test('a patient whole: protocols, orders with status, tracking and protocol, supply; reordered by mouse and by keyboard', async ({
  app,
  host,
  keychainService,
}, testInfo) => {
  test.setTimeout(180_000);
  await connectLocalSandbox(app);
  const seeded = await seed(host, keychainService);

  // The list: both patients, searched by name or Patient ID, with their counts.
  await ui
    .sidebar(app)
    .getByRole('link', { name: /Patients/ })
    .click();
  await expect(heading(app, 'Patients')).toBeFocused();
  const search = app.getByRole('searchbox', { name: 'Search patients' });
  await search.fill('pt-e2e');
  const list = app.getByRole('list', { name: 'Patients' });
  await expect(list.getByRole('link')).toHaveCount(2);
  await expect(list.getByRole('link', { name: new RegExp(NAME) })).toContainText(
    '3 protocols · 5 orders',
  );
  await expect(list.getByRole('link', { name: /Bob Other/ })).toContainText('Never ordered');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'patients-list', { screenshot: true });
  await search.fill('bob other');
  await expect(list.getByRole('link')).toHaveCount(1);
  await search.fill('nobody at all');
  await expect(app.getByText('No patient matches the search.')).toBeVisible();
  await app.getByRole('button', { name: 'Clear the search' }).click();

  await openAda(app);
  // Whole: three protocols, five orders newest first, the shipped one's tracking, the supply.
  await expect(protocolsTable(app).locator('tbody tr')).toHaveCount(3);
  for (const days of [30, 60, 90]) await expect(protocolsTable(app)).toContainText(`${days} days`);
  const rows = ordersTable(app).locator('tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText(seeded.recent.id);
  await expect(rows.first()).toContainText('Shipped');
  await expect(rows.first()).not.toContainText('No tracking yet');
  for (const [i, order] of seeded.past.entries()) {
    await expect(rows.nth(i + 1)).toContainText(order.id);
    await expect(rows.nth(i + 1)).toContainText('Delivered');
    await expect(rows.nth(i + 1)).toContainText('None here');
  }
  await expect(app.getByTestId('patient-supply')).toContainText(`order ${seeded.recent.id}`);
  await expect(app.getByTestId('patient-supply')).toContainText(/(29|30) days left/);
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'patient-view', { screenshot: true });
  expect(await crampedOrderCells(app)).toEqual([]);
  await app.setViewportSize({ width: 1024, height: 700 });
  // The smallest supported window: nothing cut or scrolled sideways, Order again in view.
  expect(await sidewaysOverflow(app)).toEqual([]);
  // And the orders read as a table, not a word a line: IDs on one line, nothing spilling out of
  // its cell, a tracking number on two lines at most.
  expect(await crampedOrderCells(app)).toEqual([]);
  const firstAgain = rows.first().getByRole('button', { name: /^Order again/ });
  await firstAgain.scrollIntoViewIfNeeded();
  await expect(firstAgain).toBeInViewport({ ratio: 1 });
  await saveScreen(app, testInfo, 'patient-view-1024');
  await app.setViewportSize({ width: 1280, height: 800 });

  // From an order and back: the order's detail links to its patient.
  await rows.nth(1).getByRole('link', { name: seeded.past[0]!.id }).click();
  await app
    .getByRole('region', { name: 'Order details' })
    .getByRole('link', { name: NAME })
    .click();
  await expect(heading(app, NAME)).toBeFocused();
  // From a protocol and back: the editor links to its patient.
  await protocolsTable(app)
    .getByRole('link', { name: /60 days/ })
    .click();
  await expect(heading(app, `Protocol for ${NAME}`)).toBeVisible();
  await app.getByRole('link', { name: 'Patient', exact: true }).click();
  await expect(heading(app, NAME)).toBeFocused();

  // Keyboard only: a past order again, through the same confirmation as Order now.
  const k = app.keyboard;
  await tabTo(app, app.getByRole('button', { name: `Order again: order ${seeded.past[3]!.id}` }));
  await k.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'Send 1 order?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(NAME);
  // It repeats the order shipped now (same patient and content within its supply): said so.
  await expect(dialog.getByTestId('confirm-repeats')).toContainText(seeded.recent.id);
  const send = dialog.getByRole('button', { name: 'Order again anyway' });
  await tabTo(app, send, 5);
  await k.press('Enter');
  await expect(dialog).toBeHidden();
  const progress = app.locator('.order-progress');
  await expect(progress).toHaveAttribute('data-order', 'created', { timeout: 30_000 });
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toContainText('None here');

  const pastAgain = (await progress.getByRole('link').innerText()).trim();

  // A protocol again: one order, in the very confirmation the protocol's Order now opens (it
  // once opened the batch review instead: issue 26). First what the editor shows, then the same
  // from the patient's page, which stays where it is.
  await protocolsTable(app)
    .getByRole('link', { name: /60 days/ })
    .click();
  await expect(heading(app, `Protocol for ${NAME}`)).toBeVisible();
  await app.getByRole('button', { name: 'Order now' }).click();
  const fromEditor = app.getByRole('dialog', { name: 'Send 1 order?' });
  await expect(fromEditor).toBeVisible();
  const editorWords = await fromEditor.innerText();
  await fromEditor.getByRole('button', { name: 'Cancel' }).click();
  await expect(fromEditor).toBeHidden();
  await app.getByRole('link', { name: 'Patient', exact: true }).click();
  await expect(heading(app, NAME)).toBeFocused();
  await protocolsTable(app)
    .getByRole('button', { name: /^Order again: protocol .*60 days$/ })
    .click();
  const fromPatient = app.getByRole('dialog', { name: 'Send 1 order?' });
  await expect(fromPatient).toBeVisible();
  expect(await fromPatient.innerText()).toBe(editorWords);
  await expect(heading(app, NAME)).toBeVisible();
  await expect(heading(app, 'Review the batch')).toHaveCount(0);
  await saveScreen(app, testInfo, 'patient-protocol-order-again');
  // The same products and doses as the order just placed, for 60 days: a possible duplicate
  // (a supply counts whatever its days), ordered here on purpose.
  await expect(fromPatient.getByTestId('confirm-repeats')).toBeVisible();
  await fromPatient.getByRole('button', { name: 'Order again anyway' }).click();
  await expect(fromPatient).toBeHidden();
  await expect(progress.getByRole('link')).not.toHaveText(pastAgain, { timeout: 30_000 });
  await expect(progress).toHaveAttribute('data-order', 'created');
  const placed = (await progress.getByRole('link').innerText()).trim();
  await expect(rows).toHaveCount(7);
  await expect(rows.first()).toContainText(placed);
  // The order queue shows it.
  await ui
    .sidebar(app)
    .getByRole('link', { name: /^Orders/ })
    .click();
  await expect(
    app.getByRole('link', { name: new RegExp(`, order ${escapeRegExp(placed)},`) }),
  ).toBeVisible();
  await openAda(app);
  await expect(rows).toHaveCount(7);
  await expect(rows.first().getByRole('link', { name: /60 days/ })).toBeVisible();
  await rows
    .first()
    .getByRole('link', { name: /60 days/ })
    .click();
  await expect(heading(app, `Protocol for ${NAME}`)).toBeVisible();
  await expect(app).toHaveURL(new RegExp(`#/protocols/${seeded.protocols[1]}$`));

  // The order's own detail links to that protocol too; an order made elsewhere does not.
  await openAda(app);
  await rows.first().getByRole('link', { name: /^ord_/ }).click();
  const madeFrom = app.getByRole('link', { name: 'Open the protocol it was made from' });
  await madeFrom.click();
  await expect(heading(app, `Protocol for ${NAME}`)).toBeVisible();
  await expect(app).toHaveURL(new RegExp(`#/protocols/${seeded.protocols[1]}$`));
  await openAda(app);
  await rows.last().getByRole('link', { name: /^ord_/ }).click();
  await expect(app.getByRole('heading', { name: 'Customer' })).toBeVisible();
  await expect(madeFrom).toHaveCount(0);
});

test('a Patient ID nothing here carries says so, with the way back', async ({ app }) => {
  await connectLocalSandbox(app);
  await app.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash =
      '#/patients/no-such-patient';
  });
  await expect(
    app.getByText('No protocol or order here has the Patient ID no-such-patient.'),
  ).toBeVisible();
  await app.getByRole('link', { name: 'All patients' }).click();
  await expect(heading(app, 'Patients')).toBeFocused();
});

const MARIA = { sourceId: 'PAT-1001', firstName: 'Maria', lastName: 'Gonzalez' };
const clashDialog = (page: Page) =>
  page.getByRole('dialog', { name: 'Patient ID PAT-1001 already belongs to Maria Gonzalez' });

test('a Patient ID reused with another name is stopped in the editor and in Duplicate', async ({
  app,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await connectLocalSandbox(app);
  draftProtocol(host, patientBody(MARIA, 30));

  // The editor: Dup Test on Maria's ID is not saved; the question says whose it is.
  await goTo(app, '#/protocols/new');
  await fillPatient(editor.form(app), { firstName: 'Dup', lastName: 'Test', sourceId: 'PAT-1001' });
  await addProduct(app, 'Whey-Free Protein Powder, Vanilla');
  await editor.save(app).click();
  const dialog = clashDialog(app);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You are saving Dup Test with PAT-1001');
  expect(host.core.store.protocols.count()).toBe(1);
  await dialog.getByRole('radio', { name: /Yes, Maria Gonzalez: use the stored details/ }).focus();
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'patient-id-dialog', { screenshot: true });
  await saveScreen(app, testInfo, 'patient-id-dialog');

  // Another person: the suggested free ID, in the clinic's pattern.
  await dialog.getByRole('radio', { name: /No, another person/ }).check();
  await expect(dialog.getByRole('textbox', { name: 'New Patient ID' })).toHaveValue('PAT-1002');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(heading(app, 'Protocol for Dup Test')).toBeVisible();
  await expect(editor.field(app, 'Patient ID')).toHaveValue('PAT-1002');

  // Duplicate keeping Maria's ID for someone else: the same question; the stored details win.
  await app.getByRole('button', { name: 'Duplicate for another patient' }).click();
  const copy = app.getByRole('dialog', { name: 'Duplicate for another patient' });
  await fillPatient(copy, { firstName: 'Ann', lastName: 'Other', sourceId: 'PAT-1001' });
  await copy.getByRole('button', { name: 'Make the copy' }).click();
  const again = app.getByRole('dialog', {
    name: 'Patient ID PAT-1001 already belongs to Maria Gonzalez',
  });
  await expect(again).toBeVisible();
  expect(host.core.store.protocols.count()).toBe(2);
  await again.getByRole('radio', { name: /Yes, Maria Gonzalez: use the stored details/ }).check();
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(heading(app, 'Protocol for Maria Gonzalez')).toBeVisible();
  await expect(editor.field(app, 'Address line 1')).toHaveValue('1 Main St');

  // The list: each name once under its own ID; a search for Maria finds her.
  await ui
    .sidebar(app)
    .getByRole('link', { name: /Patients/ })
    .click();
  await app.getByRole('searchbox', { name: 'Search patients' }).fill('Maria');
  const list = app.getByRole('list', { name: 'Patients' });
  await expect(list.getByRole('link')).toHaveCount(1);
  await expect(list.getByRole('link')).toContainText('Maria Gonzalez');
  await expect(list.getByRole('link')).toContainText('2 protocols');
  await expect(app.getByRole('status').filter({ hasText: 'more than one name' })).toHaveCount(0);
});

test('IDs a store already shares between names are listed apart, flagged, and untangled on review', async ({
  app,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await connectLocalSandbox(app);
  draftProtocol(host, patientBody(MARIA, 30));
  // Old data, or another desk's: written past the rule, as the mirror pull writes.
  host.core.store.protocols.createDraft(
    patientBody({ sourceId: 'PAT-1001', firstName: 'Dup', lastName: 'Test' }, 60),
  );

  await ui
    .sidebar(app)
    .getByRole('link', { name: /Patients/ })
    .click();
  const banner = app
    .getByRole('status')
    .filter({ hasText: '1 Patient ID is used for more than one name' });
  await expect(banner).toBeVisible();
  const search = app.getByRole('searchbox', { name: 'Search patients' });
  await search.fill('PAT-1001');
  const list = app.getByRole('list', { name: 'Patients' });
  await expect(list.getByRole('link')).toHaveCount(2);
  for (const name of ['Dup Test', 'Maria Gonzalez']) {
    const row = list.getByRole('link', { name: new RegExp(name) });
    await expect(row).toContainText('1 protocol');
    await expect(row).toContainText('also used for another name');
  }
  await search.fill('Maria');
  await expect(list.getByRole('link')).toHaveCount(1);
  await list.getByRole('link', { name: /Maria Gonzalez/ }).click();
  await expect(heading(app, 'Maria Gonzalez')).toBeVisible();
  await expect(protocolsTable(app).getByRole('row')).toHaveCount(2);
  await expect(app.getByText('is also used here for Dup Test')).toBeVisible();

  await ui
    .sidebar(app)
    .getByRole('link', { name: /Patients/ })
    .click();
  await banner.getByRole('link', { name: 'Review' }).click();
  await expect(heading(app, 'Patient IDs used for more than one name')).toBeVisible();
  const dup = app.getByRole('listitem', { name: 'Dup Test' });
  await expect(dup.getByLabel('New Patient ID for Dup Test')).toHaveValue('PAT-1002');
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'patient-ids-review', { screenshot: true });
  await saveScreen(app, testInfo, 'patient-ids-review');

  await dup.getByRole('button', { name: 'Give this new ID' }).click();
  const confirm = app.getByRole('dialog', { name: 'Give PAT-1002 to Dup Test?' });
  await expect(confirm).toContainText('Dup Test’s 1 protocol will move from PAT-1001 to PAT-1002');
  await confirm.getByRole('button', { name: 'Change the protocols' }).click();
  await expect(app.getByText('Every Patient ID here names one person.')).toBeVisible();
  const ids = host.core.store.protocols
    .matchingDrafts({ sort: 'name' })
    .map((d) => [d.customer.firstName, d.customer.sourceId]);
  expect(ids).toEqual([
    ['Maria', 'PAT-1001'],
    ['Dup', 'PAT-1002'],
  ]);
  await expect
    .poll(
      async () =>
        (await host.core.store.activity.page({ action: 'protocol-edited' }, 10, 0)).length,
    )
    .toBe(1);
});
