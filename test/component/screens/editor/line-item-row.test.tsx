import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { ProductRead } from '@shared/api';
import { LineItemRow, STATUS_WARNINGS } from '@renderer/screens/editor/LineItemRow';
import { emptyForm, newLine, type EditorFormInput } from '@renderer/screens/editor/editor-form';
import type { PreviewDiscount } from '@renderer/screens/editor/price-preview';
import { packProduct } from '@test/support/component/fixtures';

const PACK = packProduct();
const POWDER = packProduct({
  id: 305,
  name: 'Whey Protein',
  external: true,
  price: '39.00',
});

/** One line of the editor's form, for `product` (or a product not read yet, or missing). */
function Line({
  product,
  line,
  discount = { known: true, value: 0.15 },
  onRemove = () => undefined,
}: {
  product: ProductRead | 'loading' | 'missing';
  line: ProductRead;
  discount?: PreviewDiscount;
  onRemove?: () => void;
}) {
  const { control, register, formState } = useForm<EditorFormInput>({
    defaultValues: { ...emptyForm(), lineItems: [newLine(line)] },
  });
  return (
    <LineItemRow
      index={0}
      product={product}
      productId={line.id}
      control={control}
      register={register}
      errors={formState.errors}
      knownProduct={(id) => [PACK, POWDER].find((p) => p.id === id)}
      discount={discount}
      onRemove={onRemove}
    />
  );
}

describe('LineItemRow: one product of the protocol', () => {
  it('a pack product: its doses, their sum as the quantity, the line’s total; Remove', async () => {
    const onRemove = vi.fn();
    render(<Line product={PACK} line={PACK} onRemove={onRemove} />);
    const row = screen.getByRole('group', { name: 'Magnesium Glycinate 120 mg' });
    expect(row.textContent).toContain('Pack product · $0.18 per capsule');
    const sum = within(row).getByLabelText('Quantity of Magnesium Glycinate 120 mg: pills a day');
    expect(sum.textContent).toBe('2');
    // 60 capsules at $0.18 less the partner's 15% (15 cents each, rounded half up).
    const total = () => within(row).getByLabelText('Line total for Magnesium Glycinate 120 mg');
    expect(total().textContent).toBe('$9.00');
    const morning = within(row).getByLabelText('Morning');
    await userEvent.clear(morning);
    // An empty dose cannot be priced: no line total until it is a number again.
    expect(within(row).queryByLabelText(/^Line total/)).toBeNull();
    await userEvent.type(morning, '2');
    expect(sum.textContent).toBe('4');
    expect(total().textContent).toBe('$18.00');
    await userEvent.click(
      within(row).getByRole('button', { name: 'Remove Magnesium Glycinate 120 mg' }),
    );
    expect(onRemove).toHaveBeenCalledTimes(1);
  });

  it('an external product takes a quantity per 30 days, no doses', () => {
    render(<Line product={POWDER} line={POWDER} />);
    const row = screen.getByRole('group', { name: 'Whey Protein' });
    expect(row.textContent).toContain('External product · $39.00 per container');
    expect(within(row).getByLabelText('Quantity')).toHaveProperty('value', '1');
    expect(within(row).queryByLabelText('Morning')).toBeNull();
  });

  it('a product that cannot be ordered as it is, or is not in the catalog, says so; no total without the discount', () => {
    const discontinued = { ...PACK, status: 'DISCONTINUED' as const };
    const { unmount } = render(<Line product={discontinued} line={PACK} />);
    expect(screen.getByText(STATUS_WARNINGS.DISCONTINUED)).toBeTruthy();
    expect(screen.getByText('Discontinued')).toBeTruthy();
    unmount();
    render(<Line product="missing" line={PACK} discount={{ known: false, reading: false }} />);
    const row = screen.getByRole('group', { name: 'Product 101 (not in the catalog)' });
    expect(row.textContent).toContain('This product is not in the catalog on this computer');
    expect(within(row).queryByLabelText(/^Line total/)).toBeNull();
  });
});
