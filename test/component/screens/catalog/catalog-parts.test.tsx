import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProductDetail } from '@renderer/screens/catalog/ProductDetail';
import { ShippingMethods } from '@renderer/screens/catalog/ShippingMethods';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';

const POWDER = packProduct({
  id: 301,
  name: 'Collagen Powder',
  external: true,
  price: '34.00',
  recommendedUsage: { morning: 0, afternoon: 0, evening: 0, sleep: 0 },
  certifications: [],
  allergens: ['tree_nuts'],
});

describe('ProductDetail', () => {
  it('an external product: its container price, no pill form, and its allergens', async () => {
    const desk = installOrderDesk({ 'catalog.product': () => POWDER });
    render(<ProductDetail id={301} />);
    const detail = await screen.findByRole('article', { name: 'Collagen Powder' });
    expect(desk.argsOf('catalog.product')).toEqual([{ id: 301 }]);
    expect(detail.textContent).toContain('$34.00 per container');
    expect(detail.textContent).toContain('Yes, shipped beside the daily packs');
    expect(detail.textContent).toContain('Recommended useAs directed');
    expect(detail.textContent).not.toContain('Form');
    expect(within(detail).getByRole('list', { name: 'Allergen information' }).textContent).toBe(
      'Tree nuts',
    );
    expect(within(detail).queryByRole('list', { name: 'Certifications' })).toBeNull();
  });

  it('a read that fails says so and reads again on asking', async () => {
    let fail = true;
    const desk = installOrderDesk({
      'catalog.product': () => (fail ? refuse('internal', 'The store is busy.') : POWDER),
    });
    render(<ProductDetail id={301} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The product could not be loaded.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Collagen Powder' })).toBeTruthy();
    await waitFor(() => expect(desk.argsOf('catalog.product')).toHaveLength(2));
  });
});

describe('ShippingMethods', () => {
  it('with none in the mirror yet, says to sync', async () => {
    installOrderDesk({ 'catalog.shippingMethods': () => [] });
    render(<ShippingMethods />);
    expect(
      await screen.findByText('No shipping methods yet. Sync to fetch them from the server.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
