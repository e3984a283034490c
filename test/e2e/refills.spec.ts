import type { Locator, Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import { connectLocalSandbox, ui } from '@test/support/e2e/app';
import { axeBlockers } from '@test/support/e2e/axe';
import type { BrowserHost } from '@test/support/e2e/fixtures';
import {
  cancelOrder,
  draftProtocol,
  patientBody,
  placeOrder,
  rememberPastOrder,
  serverOrderCounts,
} from '@test/support/e2e/local-orders';
import { expectBatchFinished, runCount } from '@test/support/e2e/batches';
import { saveScreen } from '@test/support/e2e/screens';

const PATIENTS = {
  // Ordered now, 30 days of supply: due within 30 days, not within 7.
  ada: { sourceId: 'refill-ada', firstName: 'Ada', lastName: 'Refill' },
  // Ordered now, 90 days: due only further ahead.
  bob: { sourceId: 'refill-bob', firstName: 'Bob', lastName: 'Refill' },
  // Never ordered.
  cara: { sourceId: 'refill-cara', firstName: 'Cara', lastName: 'Refill' },
  // 90 days ordered, then a 30-day order cancelled: the cancelled one does not count.
  dan: { sourceId: 'refill-dan', firstName: 'Dan', lastName: 'Refill' },
  // Ordered 40 days ago with 30 days of supply: ran out 10 days ago.
  eve: { sourceId: 'refill-eve', firstName: 'Eve', lastName: 'Refill' },
} as const;
type Patient = keyof typeof PATIENTS;
const name = (p: Patient) => `${PATIENTS[p].firstName} ${PATIENTS[p].lastName}`;

/** Protocols for every patient and the orders the app knows for them; answers the local ids. */
async function seed(host: BrowserHost): Promise<Record<Patient, string> & { eveOrder: string }> {
  const ids = Object.fromEntries(
    (Object.keys(PATIENTS) as Patient[]).map((p) => [
      p,
      draftProtocol(host, patientBody(PATIENTS[p])),
    ]),
  ) as Record<Patient, string>;
  const ada = await placeOrder(host, patientBody(PATIENTS.ada, 30));
  await placeOrder(host, patientBody(PATIENTS.bob, 90));
  await placeOrder(host, patientBody(PATIENTS.dan, 90));
  const danLater = await placeOrder(host, patientBody(PATIENTS.dan, 30));
  await cancelOrder(host, danLater.id);
  const eveOrder = 'ord_e2e_refill_eve';
  rememberPastOrder(host, { ...ada, customer: { ...ada.customer, ...PATIENTS.eve } }, eveOrder, 40);
  return { ...ids, eveOrder };
}

const dueTable = (page: Page) =>
  page.getByRole('table', { name: /^Protocols whose supply runs out within/ });
const neverTable = (page: Page) =>
  page.getByRole('table', { name: 'Protocols not ordered as they stand' });
const rowNames = (table: Locator) => table.locator('tbody th[scope="row"]').allTextContents();
const ourRows = async (table: Locator) =>
  (await rowNames(table)).filter((n) => n.endsWith(' Refill'));

async function openRefills(page: Page): Promise<void> {
  await ui
    .sidebar(page)
    .getByRole('link', { name: /Refills due/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Refills due' })).toBeVisible();
}

async function chooseDays(page: Page, preset: 7 | 14 | 30): Promise<void> {
  await page.getByRole('radio', { name: `${preset} days` }).check();
  await expect(
    page.getByRole('heading', { level: 2, name: `Due within ${preset} days` }),
  ).toBeVisible();
  await expect(page.locator('.refills-summary')).not.toHaveText('Updating…');
}

test('refills due lists the protocols it should and submits them', async ({
  app,
  host,
}, testInfo) => {
  await connectLocalSandbox(app);
  await openRefills(app);
  await expect(app.getByText('No protocol runs out within 30 days.')).toBeVisible();
  await saveScreen(app, testInfo, 'refills-empty');

  const ids = await seed(host);
  await app.getByRole('button', { name: 'Refresh' }).click();

  // Within 7 days: only Eve, whose supply already ran out, marked overdue.
  await chooseDays(app, 7);
  await expect.poll(() => ourRows(dueTable(app))).toEqual([name('eve')]);
  const eveRow = dueTable(app).getByRole('row', { name: new RegExp(name('eve')) });
  await expect(eveRow).toHaveClass(/refills-overdue/);
  await expect(eveRow).toContainText('Overdue');
  await expect(eveRow).toContainText(/Ran out (9|10|11) days ago/);
  // Its last order opens in the queue; back, the same days are still chosen.
  await eveRow.getByRole('link', { name: `Order ${ids.eveOrder}` }).click();
  await expect(app).toHaveURL(new RegExp(`#/orders/${ids.eveOrder}$`));
  await app.goBack();
  await expect(app.getByRole('heading', { level: 2, name: 'Due within 7 days' })).toBeVisible();
  await expect.poll(() => ourRows(dueTable(app))).toEqual([name('eve')]);
  const never = await ourRows(neverTable(app));
  expect(never).toEqual([name('cara')]);
  await saveScreen(app, testInfo, 'refills-7-days');

  // Within 30 days: Ada too, after Eve (soonest first); not Bob (90 days), not Dan, whose
  // cancelled 30-day order does not count.
  await chooseDays(app, 30);
  await expect.poll(() => ourRows(dueTable(app))).toEqual([name('eve'), name('ada')]);
  await expect(dueTable(app).getByRole('row', { name: new RegExp(name('ada')) })).not.toHaveClass(
    /refills-overdue/,
  );

  // Typed: 95 days reaches the 90-day orders (Dan's counts from his order that was not cancelled).
  const days = app.getByLabel('Days ahead', { exact: true });
  await days.fill('95');
  await expect(app.getByRole('heading', { level: 2, name: 'Due within 95 days' })).toBeVisible();
  await expect
    .poll(async () => (await ourRows(dueTable(app))).sort())
    .toEqual([name('ada'), name('bob'), name('dan'), name('eve')].sort());

  // A number the contract refuses is said on the field; the list stays as it was.
  await days.fill('400');
  await expect(days).toHaveAttribute('aria-invalid', 'true');
  await expect(app.getByText('Enter a whole number of days from 0 to 365.')).toBeVisible();
  await expect(app.getByRole('heading', { level: 2, name: 'Due within 95 days' })).toBeVisible();
  await saveScreen(app, testInfo, 'refills-invalid-days');

  // Back to 30 days; choose every due protocol and Cara, never ordered, and submit them.
  await chooseDays(app, 30);
  await expect(days).not.toHaveAttribute('aria-invalid', 'true');
  await expect.poll(() => ourRows(dueTable(app))).toEqual([name('eve'), name('ada')]);
  const allDue = app.getByRole('checkbox', { name: 'Select all due protocols' });
  await allDue.check();
  await app
    .getByRole('checkbox', { name: `Select ${name('cara')} (${PATIENTS.cara.sourceId})` })
    .check();
  const dueCount = (await rowNames(dueTable(app))).length;
  await expect(app.getByText(`${dueCount + 1} protocols chosen.`)).toBeVisible();
  await saveScreen(app, testInfo, 'refills-chosen');
  const before = await serverOrderCounts(host, 'refill-');
  await app.getByRole('button', { name: 'Review the batch…' }).click();
  await expect(app).toHaveURL(/#\/batches\/review$/);

  // The review sends exactly the chosen protocols, with no ticking: a refill chosen here follows
  // its supply. Ada was ordered a moment ago for 30 days: sent, and said to be 22 days early.
  await expect(app.getByRole('heading', { level: 1, name: 'Review the batch' })).toBeVisible();
  const toSend = app.getByRole('list', { name: 'Orders to send' });
  await expect(toSend.getByRole('listitem')).toHaveCount(3);
  for (const p of ['eve', 'cara', 'ada'] as const) await expect(toSend).toContainText(name(p));
  await expect(toSend.getByRole('listitem').filter({ hasText: name('ada') })).toContainText(
    /Refill 2[12] days early/,
  );
  await expect(toSend.getByRole('listitem').filter({ hasText: name('eve') })).toContainText(
    'Refill due',
  );
  await expect(app.getByRole('region', { name: 'Possible duplicates' })).toHaveCount(0);
  await saveScreen(app, testInfo, 'refills-review');
  await app.getByRole('button', { name: 'Submit 3 orders…' }).click();
  await app.getByRole('button', { name: 'Send 3 orders', exact: true }).click();
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('3');
  // The notifier announces the end of a batch submitted from this window, once.
  const finished = app
    .getByRole('region', { name: 'Notifications' })
    .getByText('3 orders created, 0 rejected.');
  await expect(finished).toHaveCount(1);

  // The server holds one new order for each chosen patient, and none for the others.
  const after = await serverOrderCounts(host, 'refill-');
  const added = Object.fromEntries(
    (Object.keys(PATIENTS) as Patient[]).map((p) => {
      const id = PATIENTS[p].sourceId;
      return [p, (after[id] ?? 0) - (before[id] ?? 0)];
    }),
  );
  expect(added).toEqual({ ada: 1, bob: 0, cara: 1, dan: 0, eve: 1 });
  expect(ids.ada).toBeTruthy();

  // Ordered now for 30 days: nothing is due within 7 days any more, and Cara has an order.
  await openRefills(app);
  await chooseDays(app, 7);
  await expect.poll(() => ourRows(dueTable(app))).toEqual([]);
  await expect(app.getByText('No protocol runs out within 7 days.')).toBeVisible();
  await expect(app.getByText('Every protocol has an order.')).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`refills due passes axe, ${theme} theme`, async ({ page, host }, testInfo) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await connectLocalSandbox(page);
    await seed(host);
    await openRefills(page);
    await expect.poll(() => ourRows(dueTable(page))).toEqual([name('eve'), name('ada')]);
    await page
      .getByRole('checkbox', { name: `Select ${name('eve')} (${PATIENTS.eve.sourceId})` })
      .check();
    await saveScreen(page, testInfo, `${theme}-refills`);
    expect(await axeBlockers(page, testInfo, `${theme}-refills`)).toEqual([]);
  });
}

test('twelve refills due, ordered 20 days ago, are sent from Refills due without ticking one', async ({
  app,
  host,
}, testInfo) => {
  await connectLocalSandbox(app);
  const patients = Array.from({ length: 12 }, (_, i) => ({
    sourceId: `due12-${String(i + 1).padStart(2, '0')}`,
    firstName: `Dana${i + 1}`,
    lastName: 'Twelve',
  }));
  // One order placed and cancelled on the server: the body of the past orders below.
  const placed = await placeOrder(host, patientBody(patients[0]!));
  await cancelOrder(host, placed.id);
  for (const [i, patient] of patients.entries()) {
    draftProtocol(host, patientBody(patient));
    // A 30-day order of the protocol's products made 20 days ago (less an hour, so that the
    // seconds the test takes do not make it 9 days left): 10 days left, 3 days early.
    const past = { ...placed, customer: { ...placed.customer, ...patient } };
    rememberPastOrder(host, past, `ord_e2e_due12_${i}`, 20 - 1 / 24);
  }
  await openRefills(app);
  await chooseDays(app, 14);
  const twelve = async () =>
    (await rowNames(dueTable(app))).filter((n) => n.endsWith(' Twelve')).length;
  await expect.poll(twelve).toBe(12);
  const row = dueTable(app).getByRole('row', { name: /Dana1 Twelve/ });
  await expect(row).toContainText('In 3 days');
  await app.getByRole('checkbox', { name: 'Select all due protocols' }).check();
  const before = await serverOrderCounts(host, 'due12-');
  await app.getByRole('button', { name: 'Review the batch…' }).click();

  await expect(app.getByTestId('review-included')).toHaveText('12');
  await expect(app.getByTestId('review-held')).toHaveText('0');
  const toSend = app.getByRole('list', { name: 'Orders to send' });
  await expect(toSend.getByText('Refill 3 days early').first()).toBeVisible();
  await saveScreen(app, testInfo, 'refills-twelve-review');
  await app.getByRole('button', { name: 'Submit 12 orders…' }).click();
  await app.getByRole('button', { name: 'Send 12 orders', exact: true }).click();
  await expectBatchFinished(app);
  await expect(runCount(app, 'created')).toHaveText('12');
  const after = await serverOrderCounts(host, 'due12-');
  for (const p of patients)
    expect((after[p.sourceId] ?? 0) - (before[p.sourceId] ?? 0), p.sourceId).toBe(1);
});
