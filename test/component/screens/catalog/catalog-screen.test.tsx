import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProductRead } from '@shared/api';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import CatalogScreen from '@renderer/screens/catalog/CatalogScreen';
import { useCatalogStore } from '@renderer/stores/catalog-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';

const MAGNESIUM = packProduct();
const OMEGA = packProduct({
  id: 102,
  name: 'Omega-3 Fish Oil 1000 mg',
  packDescription: '1 softgel daily',
  price: '0.25',
  status: 'BACKORDERED',
  form: 'softgel',
});
const PRODUCTS = [MAGNESIUM, OMEGA];

/** The catalog mirror: products filtered by status and name as main filters them. */
function catalog(products: ProductRead[] = PRODUCTS) {
  return installOrderDesk({
    'catalog.products': ({ status, search }) => {
      const found = products.filter(
        (p) =>
          (!status || status.includes(p.status)) &&
          (!search || p.name.toLowerCase().includes(search.toLowerCase())),
      );
      return { products: found, total: found.length };
    },
    'catalog.product': ({ id }) =>
      products.find((p) => p.id === id) ?? refuse('not-found', 'No such product.'),
    'catalog.shippingMethods': () => [
      {
        id: 'STANDARD',
        name: 'Standard',
        description: 'Ground',
        price: '7.99',
        minDays: 3,
        maxDays: 5,
      },
      {
        id: 'EXPRESS',
        name: 'Express',
        description: 'Two-day air',
        price: '19.99',
        minDays: 2,
        maxDays: 2,
      },
    ],
  });
}

function renderCatalog(path: string) {
  window.history.replaceState(null, '', `#/catalog${path}`);
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/catalog" nest>
        <CatalogScreen />
      </Route>
    </Router>,
  );
}

const productList = () => screen.findByRole('list', { name: 'Products' });

beforeEach(() => useCatalogStore.getState().reset());

describe('CatalogScreen, ProductsView and ProductList', () => {
  it('lists the products with price and status, and counts each status', async () => {
    catalog();
    renderCatalog('');
    const list = await productList();
    const rows = within(list).getAllByRole('link');
    expect(rows.map((r) => r.getAttribute('href'))).toEqual([
      '#/catalog/products/101',
      '#/catalog/products/102',
    ]);
    expect(rows[1]!.textContent).toContain('Omega-3 Fish Oil 1000 mg');
    expect(rows[1]!.textContent).toContain('$0.25 / softgel');
    expect(rows[1]!.textContent).toContain('Backordered');
    expect(screen.getByRole('status').textContent).toBe('2 products');
    expect(
      screen.getByText('Select a product to see its details and supplement facts.'),
    ).toBeTruthy();
    const backordered = screen.getByRole('checkbox', { name: /Backordered/ });
    await waitFor(() => expect(backordered.closest('label')!.textContent).toBe('Backordered1'));
  });

  it('filters by status and by search, and clears the filters when nothing matches', async () => {
    const desk = catalog();
    const user = userEvent.setup();
    renderCatalog('');
    await productList();
    await user.click(screen.getByRole('checkbox', { name: /Backordered/ }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 product match'));
    expect(desk.argsOf('catalog.products')).toContainEqual({
      status: ['BACKORDERED'],
      limit: 100,
      offset: 0,
    });
    await user.type(screen.getByLabelText('Search products'), 'magnesium');
    expect(await screen.findByText('No products match the search and filters.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('2 products'));
  });

  it('a search over the contract’s limit is not sent: the list says what to change', async () => {
    catalog();
    renderCatalog('');
    await productList();
    act(() => useCatalogStore.getState().setSearch('x'.repeat(201)));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The search cannot be used.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Clear search and filters' }));
    expect(await productList()).toBeTruthy();
  });

  it('an empty catalog says to sync', async () => {
    catalog([]);
    renderCatalog('');
    expect(
      await screen.findByText(
        'The catalog is empty. Use Sync now to fetch products from the server.',
      ),
    ).toBeTruthy();
  });
});

describe('ProductDetail (through CatalogScreen’s route)', () => {
  it('shows the chosen product’s facts and marks its row', async () => {
    const desk = catalog();
    renderCatalog('/products/101');
    const detail = await screen.findByRole('article', { name: 'Magnesium Glycinate 120 mg' });
    expect(desk.argsOf('catalog.product')).toEqual([{ id: 101 }]);
    expect(detail.textContent).toContain('In daily packs');
    expect(detail.textContent).toContain('1 evening, 1 bedtime');
    expect(within(detail).getByRole('list', { name: 'Certifications' }).textContent).toBe('GMP');
    expect(within(detail).getByRole('heading', { name: 'Supplement Facts' })).toBeTruthy();
    const row = within(await productList()).getByRole('link', { name: /Magnesium/ });
    expect(row.getAttribute('aria-current')).toBe('page');
  });

  it('says when there is no such product, and when the id is no number', async () => {
    catalog();
    const { unmount } = renderCatalog('/products/999');
    expect(await screen.findByText('There is no product number 999.')).toBeTruthy();
    unmount();
    catalog();
    renderCatalog('/products/abc');
    expect(await screen.findByText('"abc" is not a product number.')).toBeTruthy();
  });
});

describe('ShippingMethods (CatalogScreen’s second tab)', () => {
  it('lists each method with its delivery time and price', async () => {
    catalog();
    renderCatalog('/shipping');
    const tab = screen.getByRole('link', { name: 'Shipping methods' });
    expect(tab.getAttribute('aria-current')).toBe('page');
    const table = await screen.findByRole('table');
    const express = within(table).getByRole('row', { name: /Express/ });
    expect(express.textContent).toContain('Two-day air');
    expect(express.textContent).toContain('2 business days');
    expect(express.textContent).toContain('$19.99');
    expect(within(table).getByRole('row', { name: /Standard/ }).textContent).toContain(
      '3–5 business days',
    );
  });

  it('says when the methods could not be read', async () => {
    installOrderDesk({
      'catalog.shippingMethods': () => refuse('not-connected', 'Not connected.'),
    });
    renderCatalog('/shipping');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Shipping methods could not be loaded.',
    );
  });
});
