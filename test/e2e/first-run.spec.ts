import { expect, test } from './support/fixtures';
import {
  connectLocalSandbox,
  expectConnected,
  expectFirstRunConnect,
  expectProductsListed,
  productNames,
  ui,
} from './support/app';
import { saveScreen } from './support/screens';

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
  await expect(ui.sidebar(app).getByRole('link', { name: 'Catalog' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  expect(host.core.listConnections().map((c) => [c.id, c.kind])).toEqual([
    ['embedded', 'embedded'],
  ]);
  await saveScreen(app, testInfo, 'catalog-connected');

  // The choice is kept: a reload (the app restarted) goes straight to the catalog.
  await app.reload();
  await expectConnected(app, 'Local sandbox');
  await expectProductsListed(app);
});
