import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RepeatedOrders, statusWords } from '@renderer/components/RepeatedOrders';
import { formatDateTime } from '@renderer/lib/dates';

describe('RepeatedOrders: the orders a new one would repeat', () => {
  it('lists each with its link, status in words and when it was made; one on its way as such', () => {
    const at = '2026-11-20T09:30:00.000Z';
    render(
      <RepeatedOrders
        label="Orders the patient already has"
        orders={[
          { orderId: 'ord/1001', createdAt: at, status: 'AWAITING_SHIPMENT' },
          { orderId: 'ord_1002', createdAt: null, status: 'ON_HOLD' },
          { orderId: null, createdAt: null, status: null },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Orders the patient already has' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      `Order ord/1001 · Awaiting shipment · made ${formatDateTime(at)}`,
      'Order ord_1002 · On hold',
      'An order with the same content is being sent from this desk',
    ]);
    // jsdom's name computation drops the space the hidden "Order " ends with: matched in part.
    expect(
      within(list)
        .getByRole('link', { name: /ord\/1001/ })
        .getAttribute('href'),
    ).toBe('#/orders/ord%2F1001');
    expect(statusWords('DELIVERED')).toBe('Delivered');
  });
});
