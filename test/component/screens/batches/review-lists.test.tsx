import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ReviewItemView } from '@shared/work-views';
import { DroppedList } from '@renderer/screens/batches/DroppedList';
import { HeldList } from '@renderer/screens/batches/HeldList';
import { LeftOutList } from '@renderer/screens/batches/LeftOutList';
import { ReviewList } from '@renderer/screens/batches/ReviewList';

const ADA = '0b6a4c1e-8f2d-4c3a-9e71-5d2f8a6b3c01';
const GRACE = '1c7b5d2f-9a3e-4d4b-8f82-6e3a9b7c4d02';

const item = (over: Partial<ReviewItemView> & Pick<ReviewItemView, 'localId'>) =>
  ReviewItemView.parse({
    customerName: 'Ada Lovelace',
    sourceId: 'PAT-ADA-1',
    estimatedTotal: '26.35',
    detail: null,
    warnings: [],
    problems: [],
    refusals: [],
    repeats: [],
    sameAs: null,
    refill: null,
    ...over,
  });

/** Ada's order with its products and price, as the review expands it. */
const DETAILED = item({
  localId: ADA,
  warnings: ['Krill Oil 500 mg is backordered'],
  detail: {
    daysSupply: 30,
    shippingMethod: 'EXPRESS',
    lines: [
      {
        productId: 101,
        name: 'Magnesium Glycinate 120 mg',
        quantity: 2,
        external: false,
        total: '10.80',
      },
      { productId: 303, name: 'Fish Oil Liquid', quantity: 1, external: true, total: '12.00' },
    ],
    price: {
      discount: '15%',
      volumeDiscount: '1.00',
      fees: '0.00',
      shipping: '7.99',
      total: '26.35',
    },
  },
});

/** The expand button's name (jsdom joins its hidden words to the name without their space). */
const priceOf = (who: string) => new RegExp(`^Products and price of ?${who}$`);

describe('ReviewList and ReviewDetail: the orders to send, each expanding to its price', () => {
  it('expands a row to its products and price, and drops a protocol from the batch', async () => {
    const onDrop = vi.fn();
    const user = userEvent.setup();
    render(
      <ReviewList
        items={[
          DETAILED,
          item({ localId: GRACE, customerName: 'Grace Hopper', estimatedTotal: null }),
        ]}
        exact={false}
        onDrop={onDrop}
      />,
    );
    expect(screen.getByText('Krill Oil 500 mg is backordered')).toBeTruthy();
    const expand = screen.getByRole('button', { name: priceOf('Ada Lovelace') });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    // Grace's protocol cannot be priced: nothing to expand.
    expect(screen.getByRole('button', { name: priceOf('Grace Hopper') })).toHaveProperty(
      'disabled',
      true,
    );

    await user.click(expand);
    expect(expand.getAttribute('aria-expanded')).toBe('true');
    const lines = screen.getByRole('table', { name: 'Products of the order for Ada Lovelace' });
    expect(
      within(lines)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [...r.children].map((c) => c.textContent)),
    ).toEqual([
      ['Magnesium Glycinate 120 mg 101', '2 pills a day', '$10.80'],
      ['Fish Oil Liquid 303', '1 per 30 days', '$12.00'],
    ]);
    expect(within(lines).getByRole('columnheader', { name: 'Estimate' })).toBeTruthy();
    expect(screen.getByText('30 days, Express shipping')).toBeTruthy();
    expect(screen.getByText('Estimated total').nextElementSibling?.textContent).toBe('$26.35');
    expect(screen.getByText('Volume discount').nextElementSibling?.textContent).toBe('−$1.00');

    await user.click(screen.getByRole('button', { name: 'Drop Grace Hopper from the batch' }));
    expect(onDrop).toHaveBeenCalledWith(GRACE);
  });
});

describe('HeldList: possible duplicates, sent only when included', () => {
  it('names what each repeats and includes one, or all of them', async () => {
    const onToggle = vi.fn();
    const onIncludeAll = vi.fn();
    const user = userEvent.setup();
    const ada = item({ localId: ADA });
    const twin = item({ localId: GRACE, sameAs: ADA, estimatedTotal: '31.20' });
    render(
      <HeldList
        items={[
          twin,
          { ...ada, repeats: [{ orderId: 'ord_0900', createdAt: null, status: 'NEW' }] },
        ]}
        all={[ada, twin]}
        included={new Set([ADA])}
        onToggle={onToggle}
        onIncludeAll={onIncludeAll}
      />,
    );
    const held = screen.getByRole('region', { name: 'Possible duplicates' });
    expect(
      within(held).getByText('Same order as Ada Lovelace, earlier in this batch.'),
    ).toBeTruthy();
    expect(
      within(held)
        .getByRole('link', { name: /ord_0900$/ })
        .getAttribute('href'),
    ).toBe('#/orders/ord_0900');
    const boxes = within(held).getAllByRole('checkbox', { name: /Order again anyway/ });
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([false, true]);
    expect(boxes[0]!.parentElement?.textContent).toBe('Order again anyway ($31.20)');
    await user.click(boxes[0]!);
    expect(onToggle).toHaveBeenCalledWith(GRACE, true);
    await user.click(within(held).getByRole('button', { name: 'Include all 2' }));
    expect(onIncludeAll).toHaveBeenCalledOnce();
  });
});

describe('DroppedList: protocols dropped from the batch, each can be put back', () => {
  it('focuses the one dropped last and puts it back', async () => {
    const onPutBack = vi.fn();
    render(
      <DroppedList
        items={[
          item({ localId: ADA }),
          item({ localId: GRACE, customerName: '', sourceId: 'PAT-GH-2' }),
        ]}
        lastDropped={GRACE}
        onPutBack={onPutBack}
      />,
    );
    const putBack = screen.getByRole('button', { name: 'Put PAT-GH-2 back in the batch' });
    expect(document.activeElement).toBe(putBack);
    await userEvent.click(
      screen.getByRole('button', { name: 'Put Ada Lovelace back in the batch' }),
    );
    expect(onPutBack).toHaveBeenCalledWith(ADA);
  });
});

describe('LeftOutList: protocols not sent, with why and a way to fix each', () => {
  it('lists the problems of a protocol left out, or the refusals of one the server will refuse', () => {
    const broken = item({
      localId: GRACE,
      customerName: 'Grace Hopper',
      problems: ['No product.'],
    });
    const { unmount } = render(<LeftOutList items={[broken]} kind="left-out" />);
    const leftOut = screen.getByRole('region', { name: 'Left out of the batch' });
    expect(
      within(leftOut).getByRole('list', { name: 'Why Grace Hopper is left out' }).textContent,
    ).toBe('No product.');
    expect(
      within(leftOut)
        .getByRole('link', { name: 'Fix protocol of Grace Hopper in the editor' })
        .getAttribute('href'),
    ).toBe(`#/protocols/${GRACE}`);
    unmount();

    render(
      <LeftOutList
        items={[{ ...broken, refusals: ['Krill Oil is discontinued'] }]}
        kind="refused"
      />,
    );
    const refused = screen.getByRole('region', { name: 'Will be refused' });
    expect(
      within(refused).getByRole('list', { name: 'Why Grace Hopper will be refused' }).textContent,
    ).toBe('Krill Oil is discontinued');
  });
});
