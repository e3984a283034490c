import { expect, test } from '@test/support/e2e/fixtures';
import {
  expectConnected,
  expectFirstRunConnect,
  expectProductsListed,
  fillPartnerForm,
  openProduct,
  partnerForm,
  ui,
} from '@test/support/e2e/app';
import { saveScreen } from '@test/support/e2e/screens';

test('when the server goes away the header says Offline, Sync now says why, and the catalog still reads from this computer', async ({
  app,
  partnerSandbox,
}, testInfo) => {
  await expectFirstRunConnect(app);
  await fillPartnerForm(app, partnerSandbox);
  await partnerForm(app).getByRole('button', { name: 'Connect', exact: true }).click();
  await expectConnected(app, 'Clinic test server');
  await expectProductsListed(app);
  const banner = ui.banner(app);
  await expect(banner).toContainText('All changes synced');
  await expect(banner).toContainText(/Synced \d/);

  await partnerSandbox.close();
  await banner.getByRole('button', { name: 'Sync now' }).click();
  await expect(banner.getByText('Offline', { exact: true })).toBeVisible();
  await expect(banner.getByText('Online', { exact: true })).toHaveCount(0);
  const alert = app.getByRole('region', { name: 'Notifications' }).getByRole('alert');
  await expect(alert).toContainText('Sync failed.');
  await expect(alert).toContainText('nothing was synced');

  // The mirror is local: products and their facts are still there.
  await openProduct(app, 'Magnesium Glycinate 120 mg');
  await expect(
    ui.productDetails(app).getByRole('region', { name: 'Supplement Facts' }),
  ).toBeVisible();
  await expect(
    ui.productDetails(app).getByRole('img', { name: /No image available/ }),
  ).toContainText('Image unavailable offline');
  await saveScreen(app, testInfo, 'catalog-offline');
});
