import type { Page } from '@playwright/test';
import { HOST_DOWN, expect, test } from '@test/support/e2e/fixtures';
import { ui } from '@test/support/e2e/app';
import { connectPartner } from '@test/support/e2e/batches';
import { saveScreen } from '@test/support/e2e/screens';
import { startTestSandbox } from '@test/support/sandbox';

/**
 * The header says only what is true: when the browser host stops, the page says so instead of
 * "Online"; a "Sync failed" toast goes once a sync succeeds.
 */

const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

test('when the browser host stops, the header says so, and Sync now is off', async ({
  app,
  host,
  partnerSandbox,
  pageErrors,
}, testInfo) => {
  for (const pattern of HOST_DOWN) pageErrors.allow(pattern);
  await connectPartner(app, partnerSandbox);
  await expect(ui.banner(app).getByTestId('connectivity')).toHaveText('Online');

  await host.close();
  await expect(ui.banner(app).getByTestId('connectivity')).toHaveText('Order Desk not running');
  await expect(ui.banner(app).getByRole('button', { name: 'Sync now' })).toBeDisabled();
  await expect(ui.banner(app).getByTestId('unsynced-count')).toHaveCount(0);
  await saveScreen(app, testInfo, 'header-host-stopped');
});

test('a "Sync failed" toast goes once a sync succeeds', async ({ app, partnerSandbox }) => {
  await connectPartner(app, partnerSandbox);
  const port = partnerSandbox.port;

  await partnerSandbox.close();
  await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
  await expect(notifications(app).getByText('Sync failed.')).toBeVisible();

  const back = await startTestSandbox({ port });
  try {
    await expect(ui.banner(app).getByTestId('connectivity')).toHaveText('Online', {
      timeout: 60_000,
    });
    await ui.banner(app).getByRole('button', { name: 'Sync now' }).click();
    await expect(ui.banner(app).getByTestId('sync-status')).toContainText('Synced');
    await expect(notifications(app).getByText('Sync failed.')).toHaveCount(0);
  } finally {
    await back.close();
  }
});
