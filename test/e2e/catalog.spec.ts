import { expect, test } from '@test/support/e2e/fixtures';
import {
  connectLocalSandbox,
  expectProductsListed,
  openProduct,
  productNames,
  ui,
} from '@test/support/e2e/app';
import { saveScreen } from '@test/support/e2e/screens';

test.beforeEach(async ({ app }) => {
  await connectLocalSandbox(app);
  await expectProductsListed(app);
});

test('the status filter narrows the list to the chosen statuses', async ({ app }, testInfo) => {
  const all = Number((await ui.catalogSummary(app).textContent())?.match(/^(\d+) products$/)?.[1]);
  expect(all).toBeGreaterThan(10);

  const backordered = ui.statusFilter(app, 'Backordered');
  await backordered.check();
  await expect(ui.catalogSummary(app)).toHaveText(/^\d+ products? match$/);
  const shown = Number((await ui.catalogSummary(app).textContent())?.match(/^(\d+)/)?.[1]);
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(all);
  const rows = ui.productList(app).getByRole('listitem');
  await expect(rows).toHaveCount(shown);
  for (const row of await rows.all()) await expect(row).toContainText('Backordered');
  expect(await productNames(app)).toContain('Probiotic 50B');
  expect(await productNames(app)).not.toContain('Magnesium Glycinate 120 mg');
  // Each price says what it buys: one pill of a pack product, one container of an external one.
  await expect(ui.productLink(app, 'Probiotic 50B')).toContainText('$0.85 / capsule');
  await expect(ui.productLink(app, 'Collagen Peptides Powder')).toContainText('$39.00 / container');
  await saveScreen(app, testInfo, 'catalog-filtered-backordered');

  // A second status widens the filter; clearing both brings every product back.
  await ui.statusFilter(app, 'Discontinued').check();
  await expect(ui.productList(app)).toContainText('Glucosamine & Chondroitin');
  await expect(ui.productList(app)).toContainText('Probiotic 50B');
  await backordered.uncheck();
  await expect(ui.productList(app)).not.toContainText('Probiotic 50B');
  await ui.statusFilter(app, 'Discontinued').uncheck();
  await expect(ui.catalogSummary(app)).toHaveText(`${all} products`);
});

test('search by name finds the matching products only', async ({ app }, testInfo) => {
  await ui.search(app).fill('magnesium');
  await expect(ui.catalogSummary(app)).toHaveText(/^\d+ products? match$/);
  const names = await productNames(app);
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) expect(name.toLowerCase()).toContain('magnesium');
  expect(names).toContain('Magnesium Glycinate 120 mg');
  await saveScreen(app, testInfo, 'catalog-search');

  // Search and status filter combine.
  await ui.statusFilter(app, 'Backordered').check();
  await expect(ui.catalogSummary(app)).toHaveText('1 product match');
  expect(await productNames(app)).toEqual(['Magnesium L-Threonate']);

  await ui.statusFilter(app, 'Backordered').uncheck();
  await ui.search(app).fill('no such supplement');
  await expect(app.getByText('No products match the search and filters.')).toBeVisible();
  await app.getByRole('button', { name: 'Clear filters' }).click();
  await expect(ui.search(app)).toHaveValue('');
  await expect(ui.catalogSummary(app)).toHaveText(/^\d+ products$/);
});

test('search matches words, not one exact substring: "omega 3" finds Omega-3', async ({ app }) => {
  for (const search of ['omega-3', 'omega 3', '3 omega', 'OMEGA3']) {
    await ui.search(app).fill(search);
    await expect(ui.catalogSummary(app)).toHaveText('1 product match');
    expect(await productNames(app)).toEqual(['Omega-3 Fish Oil 1000 mg']);
  }
});

test('a search longer than the contract allows is cut at 200 characters, never breaking the list', async ({
  app,
}, testInfo) => {
  const search = ui.search(app);
  await expect(search).toHaveAttribute('maxlength', '200');
  await search.fill('magnesium '.repeat(30)); // 300 characters
  await expect(search).toHaveValue('magnesium '.repeat(20)); // the first 200
  await expect(ui.catalogSummary(app)).toHaveText(/^\d+ products? match$/);
  expect(await productNames(app)).toContain('Magnesium Glycinate 120 mg');

  // Even when the limit is bypassed (a script, an old build), the list says what to do.
  await search.evaluate((el) => el.removeAttribute('maxlength'));
  await search.fill('x'.repeat(250));
  const alert = app.getByRole('alert').filter({ hasText: 'The search cannot be used.' });
  await expect(alert).toContainText('at most 200 characters');
  await saveScreen(app, testInfo, 'catalog-search-too-long');
  await alert.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(search).toHaveValue('');
  await expect(ui.catalogSummary(app)).toHaveText(/^\d+ products$/);
});

test('a product opens with its Supplement Facts panel', async ({ app }, testInfo) => {
  await openProduct(app, 'Magnesium Glycinate 120 mg');
  await expect(app).toHaveURL(/#\/catalog\/products\/1001$/);
  const details = ui.productDetails(app);
  await expect(ui.productLink(app, 'Magnesium Glycinate 120 mg')).toHaveAttribute(
    'aria-current',
    'page',
  );

  const facts = details.getByRole('region', { name: 'Supplement Facts' });
  await expect(facts).toBeVisible();
  await expect(facts).toContainText('Serving size');
  await expect(facts).toContainText('1 capsule');
  const nutrient = facts.getByRole('row', {
    name: /Magnesium \(as magnesium bisglycinate chelate\)/,
  });
  await expect(nutrient.getByRole('cell')).toHaveText(['120 mg', '29%']);
  await expect(facts).toContainText('Other ingredients: hypromellose capsule');
  // The price is per capsule, in the heading block and in the facts list.
  await expect(details.getByText('$0.18 per capsule', { exact: true })).toHaveCount(2);
  await expect(details.getByRole('term')).toContainText(['Form']);
  await saveScreen(app, testInfo, 'product-detail');

  // The address is the product: opening it directly shows the same panel.
  await app.goto(app.url().replace(/products\/1001$/, 'products/1002'));
  await expect(details.getByRole('heading', { name: 'Vitamin D3 + K2' })).toBeVisible();
  await expect(details.getByRole('region', { name: 'Supplement Facts' })).toBeVisible();

  // An external product is priced per container and has no pill form.
  await openProduct(app, 'Collagen Peptides Powder');
  await expect(details.getByText('$39.00 per container', { exact: true })).toHaveCount(2);
  await expect(details.getByRole('term').filter({ hasText: /^Form$/ })).toHaveCount(0);
  await expect(details.getByRole('region', { name: 'Supplement Facts' })).toContainText('1 scoop');
});

test('the shipping methods are listed with delivery times and prices', async ({
  app,
}, testInfo) => {
  await app
    .getByRole('navigation', { name: 'Catalog sections' })
    .getByRole('link', {
      name: 'Shipping methods',
    })
    .click();
  await expect(app).toHaveURL(/#\/catalog\/shipping$/);
  const table = app.getByRole('region', { name: 'Shipping methods' }).getByRole('table');
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(4); // the header and three methods
  await expect(table.getByRole('rowheader')).toHaveText([/^Standard/, /^Express/, /^Overnight/]);
  await expect(table.getByRole('row', { name: /Standard/ })).toContainText('3–5 business days');
  await expect(table.getByRole('row', { name: /Overnight/ })).toContainText('1 business day');
  for (const row of await table.locator('tbody tr').all())
    await expect(row.getByRole('cell').last()).toHaveText(/^\$\d+\.\d\d$/);
  await saveScreen(app, testInfo, 'shipping-methods');
});

test('every product name is whole, its strength included, at 1280 and at 1024 px wide', async ({
  app,
}, testInfo) => {
  const scroller = app.locator('.list-scroller').filter({ has: ui.productList(app) });
  const all = Number((await ui.catalogSummary(app).textContent())?.match(/^(\d+) products$/)?.[1]);
  expect(all).toBeGreaterThan(40);
  /** Two frames after a scroll, the rows it brought read (none a placeholder any more). */
  const settled = async () => {
    await scroller.evaluate(() => {
      const g = globalThis as unknown as { requestAnimationFrame(callback: () => void): number };
      return new Promise<void>((resolve) =>
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve())),
      );
    });
    await expect(ui.productList(app).locator('.row-pending')).toHaveCount(0);
  };
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 700 },
  ]) {
    await app.setViewportSize(size);
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    // Screen by screen down the list (it is virtualised): a name cut short, by an ellipsis or
    // by the lines it is given, is one whose text is larger than its box.
    const cut = new Set<string>();
    const seen = new Set<string>();
    for (let screen = 0; screen < 30; screen++) {
      await settled();
      const titles = ui.productList(app).locator('.row-title');
      for (const t of await titles.evaluateAll((els) =>
        els.map((el) => ({
          name: el.textContent ?? '',
          cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
        })),
      )) {
        seen.add(t.name);
        if (t.cut) cut.add(t.name);
      }
      const more = await scroller.evaluate((el) => {
        const before = el.scrollTop;
        el.scrollTop += el.clientHeight;
        return el.scrollTop > before;
      });
      if (!more) break;
    }
    expect(seen.size, `${size.width} px`).toBe(all);
    expect([...cut], `names cut at ${size.width} px`).toEqual([]);
    // The name the clinic could not read, whole and in its row.
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    const link = ui.productLink(app, 'Alpha-Lipoic Acid 300 mg');
    const title = link.locator('.row-title');
    await expect(title).toHaveText('Alpha-Lipoic Acid 300 mg');
    const [row, box] = [(await link.boundingBox())!, (await title.boundingBox())!];
    expect(box.x).toBeGreaterThanOrEqual(row.x);
    expect(box.x + box.width).toBeLessThanOrEqual(row.x + row.width);
    expect(box.y + box.height).toBeLessThanOrEqual(row.y + row.height);
    await saveScreen(app, testInfo, `catalog-names-${size.width}`, { fullPage: false });
  }
});
