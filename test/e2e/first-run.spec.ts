import { expect, test } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectConnected,
  expectFirstRunConnect,
  expectProductsListed,
  productNames,
  ui,
} from '@test/support/e2e/app';
import { saveScreen } from '@test/support/e2e/screens';

test('a fresh data dir opens on Connect; the built-in sandbox connects and lists the catalog', async ({
  app,
  host,
}, testInfo) => {
  await expectFirstRunConnect(app);
  // First run: no sidebar, nothing saved yet, the local sandbox is the preselected choice.
  await expect(ui.sidebar(app)).toHaveCount(0);
  await expect(app.getByRole('radio', { name: 'Local sandbox (built in)' })).toBeChecked();
  expect(host.core.listConnections()).toEqual([]);
  await saveScreen(app, testInfo, 'connect-first-run');

  await connectLocalSandbox(app);
  await expectConnected(app, 'Local sandbox');
  // The app opens on the dashboard, first in the sidebar (Settings' "Start on" can keep the
  // protocols first).
  expect(new URL(app.url()).hash).toBe('#/dashboard');
  await expect(ui.sidebar(app).getByRole('link').first()).toHaveAccessibleName(/^Dashboard/);
  await expect(ui.banner(app)).toContainText('All changes synced');
  const rows = await expectProductsListed(app);
  expect(await rows.count()).toBeGreaterThan(3);
  for (const name of await productNames(app)) expect(name).toMatch(/\S/);
  await expect(ui.catalogSummary(app)).toHaveText(/^\d+ products$/);
  const total = Number((await ui.catalogSummary(app).textContent())!.split(' ')[0]);
  expect(total).toBeGreaterThanOrEqual(await rows.count());
  // The list holds the whole seeded catalog, e.g. a product far down the alphabet.
  await ui.search(app).fill('Zinc Picolinate');
  await expect(ui.productLink(app, 'Zinc Picolinate 30 mg')).toBeVisible();
  await ui.search(app).fill('');
  await expect(ui.catalogSummary(app)).toHaveText(`${total} products`);
  await expect(ui.sidebar(app).getByRole('link', { name: 'Catalog' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  expect(host.core.listConnections().map((c) => [c.id, c.kind])).toEqual([
    ['embedded', 'embedded'],
  ]);
  await saveScreen(app, testInfo, 'catalog-connected');

  // The choice is kept: a reload (the app restarted) goes straight to the screen it showed.
  await app.reload();
  await expectConnected(app, 'Local sandbox');
  await expectProductsListed(app);

  // Back on the Connection screen, already on the local sandbox: the other servers come first,
  // and the local sandbox is not offered again as if it were new.
  await app.keyboard.press('Control+8');
  await expect(app.getByRole('heading', { level: 1, name: 'Connection' })).toBeVisible();
  await expect(app.getByRole('radio', { name: 'Partner sandbox' })).toBeChecked();
  await expect(app.getByRole('form', { name: 'Connect to a partner sandbox' })).toBeVisible();
  await app.getByRole('radio', { name: 'Local sandbox (built in)' }).check();
  await expect(app.getByText('Order Desk is using the local sandbox now.')).toBeVisible();
  await expect(app.getByRole('button', { name: 'Use the local sandbox' })).toHaveCount(0);
  const saved = app.getByRole('region', { name: 'Saved connections' }).getByRole('listitem');
  await expect(saved).toHaveCount(1);
  // Its label already says what it is: no second "Local sandbox" badge.
  await expect(saved.locator('.connection-name')).toHaveText('Local sandboxActive');
  // The connection in use can be neither switched to nor removed.
  await expect(saved.getByRole('button')).toHaveCount(0);
  await saveScreen(app, testInfo, 'connection-local-sandbox');
});
