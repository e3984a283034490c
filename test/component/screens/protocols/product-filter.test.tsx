import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProductFilter } from '@renderer/screens/protocols/ProductFilter';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { installOrderDesk } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';
import { listView, notedViews } from '@test/support/component/protocol-fixtures';

const KRILL = packProduct({ id: 202, name: 'Krill Oil 500 mg' });
const MAGNESIUM = packProduct();

describe('ProductFilter: the catalog by name, read through the list hook', () => {
  it('offers the catalog mirror by name and filters the list by the product chosen', async () => {
    const desk = installOrderDesk({
      'catalog.products': () => ({ products: [KRILL, MAGNESIUM], total: 2 }),
      'undo.noteView': notedViews(),
    });
    render(<ProductFilter />);
    expect(await screen.findByRole('option', { name: 'Krill Oil 500 mg' })).toBeTruthy();
    expect(desk.argsOf('catalog.products')).toEqual([{ limit: 500, sort: 'name' }]);
    await userEvent.selectOptions(screen.getByLabelText('Product'), 'Krill Oil 500 mg');
    expect(useProtocolsStore.getState().productId).toBe(202);
    await userEvent.selectOptions(screen.getByLabelText('Product'), 'Any product');
    expect(useProtocolsStore.getState().productId).toBeNull();
    expect(desk.argsOf('undo.noteView')).toEqual([
      { before: listView(), after: listView({ productId: 202 }) },
      { before: listView({ productId: 202 }), after: listView() },
    ]);
  });
});
