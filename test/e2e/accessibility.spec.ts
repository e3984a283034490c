import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectWindowNotScrollable,
  expectFirstRunConnect,
  expectProductsListed,
  openProduct,
  ui,
} from '@test/support/e2e/app';
import { axeBlockers, expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { LAYOUT_SIZES } from '@test/support/e2e/layout';
import { saveScreen } from '@test/support/e2e/screens';
import { tourEveryScreen } from '@test/support/e2e/tour';

/**
 * axe (WCAG 2.0 A/AA, 2.1 AA) on every screen, in the light and the dark theme: no serious or
 * critical violation. The theme is the app's default, "system", following the emulated OS
 * preference; the other findings are printed and attached to the test.
 */
for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violations on any screen, ${theme} theme`, async ({
    page,
    host,
  }, testInfo) => {
    test.setTimeout(180_000); // ten screens, each with a screenshot and an axe run
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    const blockers: Record<string, string[]> = {};
    const check = async (screen: string, include?: string) => {
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expectWindowNotScrollable(page);
      await saveScreen(page, testInfo, `${theme}-${screen}`, { fullPage: !include });
      const found = await axeBlockers(page, testInfo, `${theme}-${screen}`, include);
      blockers[screen] = found.map(
        (f) => `${f.impact} ${f.id}: ${f.help} (${f.targets.join(', ')})`,
      );
    };

    await expectFirstRunConnect(page);
    await check('connect');
    await page.getByRole('radio', { name: 'Partner sandbox' }).check();
    await page
      .getByRole('form', { name: 'Connect to a partner sandbox' })
      .getByRole('button', { name: 'Connect', exact: true })
      .click();
    await expect(page.getByLabel('Client ID', { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await check('connect-partner-errors');
    await page.getByRole('radio', { name: 'Local sandbox (built in)' }).check();

    await connectLocalSandbox(page);
    await expectProductsListed(page);
    await check('catalog');

    await openProduct(page, 'Magnesium Glycinate 120 mg');
    await expect(
      ui.productDetails(page).getByRole('region', { name: 'Supplement Facts' }),
    ).toBeVisible();
    await check('product-detail');

    await page.getByRole('link', { name: 'Shipping methods' }).click();
    await expect(
      page.getByRole('region', { name: 'Shipping methods' }).getByRole('table'),
    ).toBeVisible();
    await check('shipping-methods');

    await host.core.session!.client.updatePartnerSettings({
      webhookUrl: 'https://clinic.example/webhooks/orders',
    });
    await openSettings(page);
    await check('settings');

    await page.getByRole('button', { name: 'Rotate secret…' }).click();
    await expect(
      page.getByRole('alertdialog', { name: 'Rotate the webhook secret?' }),
    ).toBeVisible();
    await check('rotate-dialog', 'dialog[open]');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.keyboard.press('Control+8');
    await expect(page.getByRole('heading', { level: 1, name: 'Connection' })).toBeVisible();
    await check('connection');

    // The CSV import: choosing a file, then the preview of a file with good and bad rows.
    await page.keyboard.press('Control+1');
    await page.getByRole('link', { name: 'Import CSV…' }).click();
    await expect(page.getByLabel('Choose a CSV file…')).toBeAttached();
    await check('protocols-import');
    await page.getByLabel('Choose a CSV file…').setInputFiles({
      name: 'patients.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(IMPORT_FILE, 'utf8'),
    });
    await expect(page.getByRole('button', { name: 'Import 1 protocol' })).toBeVisible();
    await check('protocols-import-preview');

    for (const [screen, found] of Object.entries(blockers))
      expect.soft(found, `serious or critical axe violations on ${screen} (${theme})`).toEqual([]);
  });
}

/**
 * Every screen again with data on it (protocols, an order's detail, a batch's review and run,
 * refills due, a conflict), at the smallest supported window and a large one, in both themes:
 * what a layout change moves (wrapped table cells, a narrower list) is checked too.
 */
for (const size of LAYOUT_SIZES) {
  test(`no serious or critical axe violations on any screen with data, ${size.width}x${size.height}`, async ({
    app,
    host,
    partnerSandbox,
  }, testInfo) => {
    test.setTimeout(180_000);
    await app.setViewportSize(size);
    await tourEveryScreen(app, host, partnerSandbox, (screen) =>
      expectNoAxeBlockersInBothThemes(app, testInfo, `${size.width}x${size.height}-${screen}`),
    );
  });
}

/** A protocols CSV of one good row and one with problems (the import's preview). */
const IMPORT_FILE = [
  'Patient ID,First name,Last name,Address line 1,City,State,ZIP code,Days supply,Shipping method,Order type,Product 1 ID,Product 1 morning,Product 2 ID,Product 2 quantity',
  'A11Y-1,Ada,Lovelace,1 Main St,Portland,OR,97210,30,STANDARD,ONE_TIME,1001,1,1035,1',
  'A11Y-2,Bo,Ek,2 Oak Ave,Salem,OR,973,45,STANDARD,ONE_TIME,1028,1,,',
].join('\r\n');

async function openSettings(page: Page) {
  await ui.sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('form', { name: 'Partner settings' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rotate secret…' })).toBeVisible();
}
