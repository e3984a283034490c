import type { Page } from '@playwright/test';
import { expect, test } from '@test/support/e2e/fixtures';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import {
  connectToProtocols,
  expectSettled,
  protocolsUi as list,
} from '@test/support/e2e/protocols';
import { saveScreen } from '@test/support/e2e/screens';
import { nameSortKey } from '@main/protocols/protocol-search';
import { generateProtocols } from '@bench/protocol-search-data';

const COUNT = 10_000;
const KRILL = { id: 1030, name: 'Antarctic Krill Oil 500 mg' };
/** The rows compared at the top of the list (the list is virtualised: only those in view exist). */
const TOP = 12;

const productFilter = (page: Page) => page.getByRole('combobox', { name: 'Product' });
const topNames = async (page: Page) => (await list.names(page)).slice(0, TOP);
const count = (n: number) => n.toLocaleString('en-US');

test('who is on Krill Oil, among 10,000 protocols: the product filter, by each sort, with search and sync state, then back to every protocol', async ({
  app,
  host,
}, testInfo) => {
  test.slow(); // 10,000 protocols seeded and read, axe in both themes
  await connectToProtocols(app);
  // The first full walk of the server's protocols is over before the seed, so the pull does not
  // find the seeded server ids missing from the sandbox (the next walk is minutes away).
  await host.core.session!.sync.syncNow();
  const protocols = generateProtocols(COUNT);
  host.core.store.protocols.upsertManyFromServer(protocols);
  await expect(list.count(app)).toHaveText(`${count(COUNT)} protocols`);

  // Seeded in this order, in one transaction: no row changed before the one seeded ahead of it,
  // so the list by last change is the newest seq first.
  const name = (i: number) =>
    `${protocols[i]!.customer.firstName} ${protocols[i]!.customer.lastName}`;
  const onKrill = protocols.flatMap((p, i) =>
    p.lineItems.some((li) => li.productId === KRILL.id) ? [i] : [],
  );
  expect(onKrill.length).toBeGreaterThan(300);
  expect(onKrill.length).toBeLessThan(COUNT / 5);
  const byChange = [...onKrill].reverse().map(name);
  const sortKey = (i: number) => nameSortKey(protocols[i]!.customer);
  const byName = [...onKrill]
    .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : a - b))
    .map(name);

  await expect(productFilter(app)).toHaveValue('');
  await productFilter(app).selectOption({ label: KRILL.name });
  await expectSettled(app);
  await expect(list.count(app)).toHaveText(`${count(onKrill.length)} protocols match`);
  await expect.poll(() => topNames(app)).toEqual(byChange.slice(0, TOP));

  await list.sortBy(app, 'Patient');
  await expectSettled(app);
  await expect.poll(() => topNames(app)).toEqual(byName.slice(0, TOP));
  await expect(list.count(app)).toHaveText(`${count(onKrill.length)} protocols match`);

  // The end of the list by name, read page after page (keyset pages under the filter).
  const scroller = app.locator('.list-scroller');
  await expect(scroller).toHaveCount(1);
  await expect
    .poll(
      async () => {
        await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        return (await list.names(app)).at(-1);
      },
      { timeout: 20_000 },
    )
    .toBe(byName.at(-1));
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  // Patient again sorts the other way, and a third time goes back to the last change first.
  await list.sort(app, 'Patient').click();
  await list.sort(app, 'Patient').click();
  await expect(list.sort(app, 'Patient')).toHaveAttribute('aria-pressed', 'false');
  await expectSettled(app);

  // With a search: a patient on Krill is found, one who is not is not.
  const krillPatient = protocols[onKrill[0]!]!.customer.sourceId;
  const other = protocols.find((p) => !p.lineItems.some((li) => li.productId === KRILL.id))!;
  await list.search(app).fill(krillPatient);
  await expectSettled(app);
  await expect.poll(() => list.names(app)).toEqual([name(onKrill[0]!)]);
  await saveScreen(app, testInfo, 'protocols-product-filter');
  await list.search(app).fill(other.customer.sourceId);
  await expect(app.getByText('No protocols match the search and filters.')).toBeVisible();
  await list.search(app).fill('');
  await expectSettled(app);

  // With a sync state: none of them has a pending change.
  await list.filter(app, 'Pending sync').check();
  await expect(app.getByText('No protocols match the search and filters.')).toBeVisible();
  await list.filter(app, 'Pending sync').uncheck();
  await expect(list.count(app)).toHaveText(`${count(onKrill.length)} protocols match`);

  await expectNoAxeBlockersInBothThemes(app, testInfo, 'protocols-product-filter', {
    screenshot: true,
  });

  // The smallest window the app supports.
  const viewport = app.viewportSize();
  await app.setViewportSize({ width: 1024, height: 700 });
  await saveScreen(app, testInfo, 'protocols-product-filter-1024', { fullPage: false });
  if (viewport) await app.setViewportSize(viewport);

  // Keyboard: the filter is a native select; choosing "Any product" shows every protocol again.
  await productFilter(app).focus();
  await productFilter(app).selectOption({ label: 'Any product' });
  await expectSettled(app);
  await expect(list.count(app)).toHaveText(`${count(COUNT)} protocols`);
});

test('select all matching under a product filter; a product no protocol orders: the empty state, and Clear search and filters brings everything back', async ({
  app,
  host,
}) => {
  await connectToProtocols(app);
  await host.core.session!.sync.syncNow();
  const protocols = generateProtocols(10);
  host.core.store.protocols.upsertManyFromServer(protocols);
  await expect(list.count(app)).toHaveText('10 protocols');
  const used = new Set(protocols.flatMap((p) => p.lineItems.map((li) => li.productId)));
  const catalog = host.core.store.products.list();
  const unused = catalog.find((p) => !used.has(p.id));
  expect(unused, 'a catalog product none of the 10 protocols orders').toBeDefined();

  // Select all matching takes exactly the protocols on the product; another product's filter
  // hides them, and they stay selected.
  const first = catalog.find((p) => p.id === protocols[0]!.lineItems[0]!.productId)!;
  const onFirst = protocols.filter((p) => p.lineItems.some((li) => li.productId === first.id));
  await productFilter(app).selectOption({ label: first.name });
  await expect(list.count(app)).toHaveText(
    `${onFirst.length} protocol${onFirst.length === 1 ? '' : 's'} match`,
  );
  await list
    .selection(app)
    .getByRole('button', { name: `Select all ${onFirst.length} matching` })
    .click();
  await expect(list.selection(app)).toContainText(`${onFirst.length} selected`);

  await productFilter(app).selectOption({ label: unused!.name });
  await expect(list.selection(app)).toContainText(
    `${onFirst.length} selected · ${onFirst.length === 1 ? 'it is' : 'all are'} hidden by the search or filters, still selected`,
  );
  await expect(app.getByText('No protocols match the search and filters.')).toBeVisible();
  await app.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(productFilter(app)).toHaveValue('');
  await expect(list.count(app)).toHaveText('10 protocols');
});
