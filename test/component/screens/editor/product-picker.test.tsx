import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ProductRead } from '@shared/api';
import { ProductPicker } from '@renderer/screens/editor/ProductPicker';
import { installOrderDesk, pass } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';

/** A catalog whose unfiltered first rows are not the product the tests type. */
const CATALOG = [
  packProduct({ id: 201, name: '5-HTP 100 mg' }),
  packProduct({ id: 202, name: 'Alpha-Lipoic Acid 300 mg' }),
  packProduct({ id: 203, name: 'Berberine 500 mg' }),
  packProduct({ id: 101, name: 'Magnesium Glycinate 120 mg' }),
];

function renderPicker() {
  installOrderDesk({
    'catalog.products': ({ search }) => {
      const products = CATALOG.filter(
        (p) => !search || p.name.toLowerCase().includes(search.toLowerCase()),
      );
      return { products, total: products.length };
    },
  });
  const onPick = vi.fn<(product: ProductRead) => void>();
  render(<ProductPicker chosen={new Set()} onPick={onPick} />);
  return { onPick, input: screen.getByRole('combobox', { name: 'Add a product' }) };
}

const picked = (onPick: ReturnType<typeof renderPicker>['onPick']) =>
  onPick.mock.calls.map(([p]) => p.name);

describe('the product picker', () => {
  it('adds what was typed when Enter follows the last letter at once, before the search applies', async () => {
    const { onPick, input } = renderPicker();
    const user = userEvent.setup();
    await user.click(input);
    // Typing lists the unfiltered catalog at once: its top row is not what is typed.
    await user.keyboard('Magnesium Glycinate{Enter}');
    await vi.waitFor(() => expect(picked(onPick)).toEqual(['Magnesium Glycinate 120 mg']));
    // The emptied search settles (its debounce) before the test ends.
    await pass(200);
  });

  it('moves the highlight with the pointer only when the pointer moves', async () => {
    const { input } = renderPicker();
    const user = userEvent.setup();
    await user.click(input);
    await user.keyboard('{ArrowDown}');
    const third = await screen.findByRole('option', { name: /^Berberine/ });
    // The list drawn under a resting pointer: entered, but the pointer did not move.
    fireEvent.mouseEnter(third);
    fireEvent.mouseOver(third);
    expect(third.getAttribute('aria-selected')).toBe('false');
    // Moved over it: it is highlighted.
    fireEvent.mouseMove(third, { screenX: 40, screenY: 100 });
    fireEvent.mouseMove(third, { screenX: 42, screenY: 101 });
    expect(third.getAttribute('aria-selected')).toBe('true');
    await pass(200);
  });
});
