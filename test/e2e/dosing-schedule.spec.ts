import type { Page } from '@playwright/test';
import type { ProtocolRequest } from '@shared/api';
import { connectLocalSandbox, expectWindowNotScrollable } from '@test/support/e2e/app';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { tabTo } from '@test/support/e2e/batches';
import { goTo } from '@test/support/e2e/editor';
import { expect, test, type BrowserHost } from '@test/support/e2e/fixtures';
import { draftProtocol, patientBody, placeOrder } from '@test/support/e2e/local-orders';
import { numbersBetween, printedPdf } from '@test/support/e2e/pdf';
import { saveScreen } from '@test/support/e2e/screens';

/**
 * The printable dosing schedule (#/protocols/:id/schedule, #/orders/:id/schedule) in the browser
 * host: what it shows, the page Chromium prints of it (one page, the patient, the products and
 * the grid's numbers in its text), keyboard-only printing, and both themes.
 */

const ADA = { sourceId: 'schedule-ada', firstName: 'Ada', lastName: 'Schedule' };
const CLINIC = 'Evergreen Integrative Clinic';
const CLINIC_PHONE = '+1 503-555-0142';

/** A typical protocol: seven pack products at different times of day and one external product. */
const LINES = [
  { productId: 1001, name: 'Magnesium Glycinate 120 mg', pack: '1 capsule', doses: [1, 0, 0, 1] },
  { productId: 1002, name: 'Vitamin D3 + K2', pack: '1 softgel', doses: [2, 0, 0, 0] },
  { productId: 1003, name: 'Omega-3 Fish Oil 1000 mg', pack: '2 softgels', doses: [1, 1, 1, 0] },
  { productId: 1004, name: 'Methyl B-Complex', pack: '1 capsule', doses: [1, 1, 0, 0] },
  { productId: 1005, name: 'Ashwagandha KSM-66', pack: '1 capsule', doses: [0, 0, 2, 3] },
  { productId: 1006, name: 'Probiotic 50B', pack: '1 capsule', doses: [1, 0, 0, 0] },
  { productId: 1007, name: 'Zinc Picolinate 30 mg', pack: '1 capsule', doses: [0, 0, 1, 0] },
] as const;
const EXTERNAL = 'Whey-Free Protein Powder, Vanilla';
const NAMES = [...LINES.map((l) => l.name), EXTERNAL];

function typicalProtocol(daysSupply: 30 | 60 | 90 = 60): ProtocolRequest {
  const base = patientBody(ADA, daysSupply);
  return {
    ...base,
    lineItems: [
      ...LINES.map(({ productId, pack, doses: [morning, afternoon, evening, sleep] }) => ({
        productId,
        packDescription: pack,
        quantity: morning + afternoon + evening + sleep,
        administration: { morning, afternoon, evening, sleep },
      })),
      { productId: 1035, quantity: 1, administration: null },
    ],
  };
}

const heading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Dosing schedule for Ada Schedule' });
const sheet = (page: Page) => page.getByRole('article', { name: 'Daily dosing schedule' });
const grid = (page: Page) =>
  sheet(page).getByRole('table', { name: 'Pills to take at each time of day, every day' });
const startDate = (page: Page) => page.getByLabel('Start date');

/** The grid's row of a product as its cells read. */
const rowCells = (page: Page, name: string) =>
  grid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) })
    .getByRole('cell');

/** The products' names are read from the catalog: the grid is complete once the last shows. */
async function expectScheduleShown(page: Page): Promise<void> {
  await expect(heading(page)).toBeFocused();
  for (const name of NAMES) await expect(grid(page).getByText(name, { exact: true })).toBeVisible();
  await expect(sheet(page).getByText(CLINIC, { exact: true })).toBeVisible();
}

/** Checks the printed PDF: one page, the patient, the clinic, every product and dose. */
async function expectPrintedSchedule(page: Page, expected: { start: string; until: string }) {
  const { pages, text } = await printedPdf(page);
  expect(pages, 'a typical protocol prints on one page').toBe(1);
  for (const words of ['Daily dosing schedule', 'Ada Schedule', ADA.sourceId, CLINIC, CLINIC_PHONE])
    expect(text).toContain(words);
  expect(text).toContain(expected.start);
  expect(text).toContain(`through ${expected.until}`);
  for (const name of NAMES) expect(text).toContain(name);
  // Each row's numbers in order: its pack description's, the doses given, the pills a day.
  for (const [i, line] of LINES.entries()) {
    const next = [...NAMES.slice(i + 1), 'Pills at each time'];
    const daily = line.doses.reduce<number>((a, b) => a + b, 0);
    const numbers = numbersBetween(text, line.name, next).slice(
      -(line.doses.filter(Boolean).length + 1),
    );
    expect(numbers, line.name).toEqual([...line.doses.filter(Boolean), daily]);
  }
  expect(text).toContain('Take as directed on the label');
  // Totals at each time: 6 in the morning, 2 in the afternoon, 4 in the evening, 4 at bedtime.
  expect(numbersBetween(text, 'Pills at each time', ['Numbers are pills'])).toEqual([
    6, 2, 4, 4, 16,
  ]);
  // Only the sheet is printed: not the app's frame, not the controls.
  for (const chrome of ['Skip to content', 'Print or save as PDF', 'Refills due', 'Back to the'])
    expect(text).not.toContain(chrome);
}

/** window.print replaced by a counter: the print dialog is the browser's, not the page's. */
async function countPrints(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const g = globalThis as unknown as { print: () => void; printed: number };
    g.printed = 0;
    g.print = () => {
      g.printed += 1;
    };
  });
  return () => page.evaluate(() => (globalThis as unknown as { printed: number }).printed);
}

async function openFromEditor(page: Page, host: BrowserHost): Promise<string> {
  await connectLocalSandbox(page);
  const localId = draftProtocol(host, typicalProtocol());
  await goTo(page, `#/protocols/${localId}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Protocol for Ada Schedule' }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Dosing schedule' }).click();
  await expect(page).toHaveURL(new RegExp(`#/protocols/${localId}/schedule$`));
  await expectScheduleShown(page);
  return localId;
}

test.describe('the dosing schedule', () => {
  test('from a protocol: shown, printed on one page with every product and dose, in both themes', async ({
    app,
    host,
  }, testInfo) => {
    await openFromEditor(app, host);

    // The grid as the patient reads it.
    await expect(rowCells(app, 'Magnesium Glycinate 120 mg')).toHaveText([
      '1',
      '–none',
      '–none',
      '1',
      '2',
    ]);
    await expect(rowCells(app, 'Ashwagandha KSM-66')).toHaveText(['–none', '–none', '2', '3', '5']);
    await expect(rowCells(app, EXTERNAL)).toHaveText(['Take as directed on the label']);
    await expect(
      grid(app).getByRole('rowheader', { name: /^Magnesium Glycinate 120 mg/ }),
    ).toContainText('Each dose: 1 capsule');
    await expect(sheet(app).getByText(`Phone ${CLINIC_PHONE}`)).toBeVisible();
    await expect(sheet(app)).toContainText('60 days');

    // The start date chosen is printed, with the last day of the supply.
    await startDate(app).fill('2026-12-01');
    await expect(sheet(app)).toContainText('Dec 1, 2026');
    await expect(sheet(app)).toContainText('60 days (through Jan 29, 2027)');
    await expect(app.getByText('The supply lasts until Jan 29, 2027.')).toBeVisible();

    await expectNoAxeBlockersInBothThemes(app, testInfo, 'schedule', { screenshot: true });
    await expectPrintedSchedule(app, { start: 'Dec 1, 2026', until: 'Jan 29, 2027' });

    // A start date cleared leaves a blank to write it in by hand; the PDF is still one page.
    await startDate(app).fill('');
    await expect(
      app.getByText('Left blank on the schedule, to be written in by hand.'),
    ).toBeVisible();
    await expect(sheet(app)).not.toContainText('through');
    expect((await printedPdf(app)).pages).toBe(1);
  });

  test('prints from the keyboard alone: Tab to Print, and Ctrl+P; the browser saves the PDF', async ({
    app,
    host,
  }) => {
    await openFromEditor(app, host);
    const printed = await countPrints(app);
    const print = app.getByRole('button', { name: 'Print or save as PDF…' });
    // The browser host says how its print dialog saves a PDF; the desktop app's button is not here.
    await expect(print).toHaveAccessibleDescription(
      'In the browser, the print dialog saves the PDF: choose “Save as PDF” as the destination.',
    );
    await expect(app.getByRole('button', { name: 'Save as PDF…', exact: true })).toHaveCount(0);

    await tabTo(app, print);
    await app.keyboard.press('Enter');
    expect(await printed()).toBe(1);
    await app.keyboard.press('Control+p');
    expect(await printed()).toBe(2);

    // Back to the protocol by keyboard too.
    await app.getByRole('link', { name: 'Back to the protocol' }).focus();
    await app.keyboard.press('Enter');
    await expect(
      app.getByRole('heading', { level: 1, name: 'Protocol for Ada Schedule' }),
    ).toBeFocused();
  });

  test('from an order: its own items and days, one page', async ({ app, host }, testInfo) => {
    await connectLocalSandbox(app);
    const order = await placeOrder(host, typicalProtocol(90));
    await goTo(app, `#/orders/${encodeURIComponent(order.id)}`);
    const details = app.getByRole('region', { name: 'Order details' });
    await details.getByRole('link', { name: 'Dosing schedule' }).click();
    await expect(app).toHaveURL(new RegExp(`#/orders/${order.id}/schedule$`));
    await expectScheduleShown(app);
    await expect(sheet(app)).toContainText('90 days');
    await startDate(app).fill('2027-01-04');
    await expect(sheet(app)).toContainText('90 days (through Apr 3, 2027)');
    await expectPrintedSchedule(app, { start: 'Jan 4, 2027', until: 'Apr 3, 2027' });
    await saveScreen(app, testInfo, 'schedule-order');

    await app.getByRole('link', { name: 'Back to the order' }).click();
    await expect(details.getByRole('heading', { name: `Order ${order.id}` })).toBeVisible();
  });

  test('carries the clinic’s logo and colours, and fits a small window', async ({
    app,
    host,
  }, testInfo) => {
    await connectLocalSandbox(app);
    const logo = 'https://logo.evergreen-clinic.example/mark.svg';
    await app.route(logo, (route) =>
      route.fulfill({
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="48"><rect width="120" height="48" rx="8" fill="#1a7f64"/><text x="60" y="31" font-size="18" text-anchor="middle" fill="#fff" font-family="sans-serif">EIC</text></svg>',
      }),
    );
    await host.core.session!.client.updatePartnerSettings({ logo, primaryColor: '#7a1f5c' });
    const localId = draftProtocol(host, typicalProtocol());
    await app.setViewportSize({ width: 1024, height: 700 });
    await goTo(app, `#/protocols/${localId}/schedule`);
    await expectScheduleShown(app);
    const image = sheet(app).getByRole('img', { name: `${CLINIC} logo` });
    await expect(image).toBeVisible();
    expect(
      await image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    await expect(sheet(app).locator('.sheet-head')).toHaveCSS(
      'border-bottom-color',
      'rgb(122, 31, 92)',
    );
    await expectWindowNotScrollable(app);
    await expectNoAxeBlockersInBothThemes(app, testInfo, 'schedule-small', { screenshot: true });
    const { pages, text } = await printedPdf(app);
    expect(pages).toBe(1);
    expect(text).toContain(CLINIC);
  });
});
