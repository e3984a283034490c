import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { TOTAL_UNKNOWN_DISCOUNT } from '@shared/pricing-views';
import { LivePrice } from '@renderer/screens/editor/LivePrice';
import { PricePreview } from '@renderer/screens/editor/PricePreview';
import { emptyForm, newLine, type EditorFormInput } from '@renderer/screens/editor/editor-form';
import { previewPricing } from '@renderer/screens/editor/price-preview';
import { packProduct } from '@test/support/component/fixtures';

const PACK = packProduct();
const product = (id: number) => (id === PACK.id ? PACK : undefined);
const lines = [newLine(PACK), { ...newLine(PACK), productId: 999 }];
const preview = previewPricing(
  { daysSupply: '30', shippingMethod: 'STANDARD', lineItems: lines },
  product,
  0.15,
);

/** The form's price as the editor shows it, with a way to change the days supply. */
function Priced() {
  const { control, setValue } = useForm<EditorFormInput>({
    defaultValues: { ...emptyForm(), lineItems: [newLine(PACK)] },
  });
  return (
    <>
      <button type="button" onClick={() => setValue('daysSupply', '90')}>
        90 days
      </button>
      <LivePrice
        control={control}
        product={product}
        discount={{ known: true, value: 0.15 }}
        exact
      />
    </>
  );
}

describe('PricePreview and LivePrice: the order’s price as the form stands', () => {
  it('PricePreview: the spec’s totals line by line, an estimate said so, lines not counted named', () => {
    render(
      <PricePreview preview={preview} exact={false} discount={{ known: true, value: 0.15 }} />,
    );
    expect(screen.getByRole('heading', { name: 'Estimated price' })).toBeTruthy();
    const rows = [...document.querySelectorAll('.price-row')].map((r) => [
      r.querySelector('dt')?.textContent,
      r.querySelector('dd')?.textContent,
    ]);
    expect(rows.map(([label]) => label)).toEqual([
      'Discounts (partner 15% and volume)',
      'of which volume discount',
      'Handling fees',
      'Subtotal',
      'Shipping',
      'Total',
    ]);
    expect(rows.at(-2)).toEqual(['Shipping', '$7.95']);
    expect(screen.getByTestId('price-total').textContent).toBe(`$${preview.pricing.totalPrice}`);
    expect(screen.getByText(/An estimate: the server you are connected to/)).toBeTruthy();
    expect(screen.getByText(/One line is not counted/)).toBeTruthy();
  });

  it('PricePreview: no total without the partner’s discount, saying whether it is being read', () => {
    const { rerender } = render(
      <PricePreview preview={preview} exact discount={{ known: false, reading: true }} />,
    );
    expect(screen.getByTestId('price-total').textContent).toBe('…');
    expect(screen.getByRole('status').textContent).toBe("Reading the partner's discount…");
    rerender(<PricePreview preview={preview} exact discount={{ known: false, reading: false }} />);
    expect(screen.getByTestId('price-total').textContent).toBe('Unknown');
    expect(screen.getByRole('status').textContent).toBe(TOTAL_UNKNOWN_DISCOUNT);
  });

  it('LivePrice: follows the form (a longer supply costs more)', async () => {
    render(<Priced />);
    expect(screen.getByRole('heading', { name: 'Price' })).toBeTruthy();
    const total = screen.getByTestId('price-total');
    const at30 = total.textContent;
    const priced90 = previewPricing(
      { daysSupply: '90', shippingMethod: 'STANDARD', lineItems: [newLine(PACK)] },
      product,
      0.15,
    );
    await userEvent.click(screen.getByRole('button', { name: '90 days' }));
    expect(total.textContent).not.toBe(at30);
    expect(total.textContent).toBe(`$${priced90.pricing.totalPrice}`);
  });
});
