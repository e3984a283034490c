import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrderStatusBadge } from '@renderer/components/OrderStatusBadge';
import { StatusBadge } from '@renderer/components/StatusBadge';

describe('OrderStatusBadge and StatusBadge: a status in words, coloured only when known', () => {
  it('an order status: its words and tone; an unknown one as it came, without a tone', () => {
    render(
      <>
        <OrderStatusBadge status="AWAITING_SHIPMENT" />
        <OrderStatusBadge status="CANCELLED" />
        <OrderStatusBadge status="ON_HOLD" />
      </>,
    );
    expect(screen.getByText('Awaiting shipment').className).toContain('order-badge-progress');
    expect(screen.getByText('Cancelled').className).toContain('order-badge-cancelled');
    expect(screen.getByText('On hold (unknown status)').className).toContain('order-badge-unknown');
  });

  it('a product status likewise', () => {
    render(
      <>
        <StatusBadge status="BACKORDERED" />
        <StatusBadge status="RECALLED" />
      </>,
    );
    expect(screen.getByText('Backordered').className).toBe('badge badge-backordered');
    expect(screen.getByText('Recalled (unknown status)').className).toBe('badge badge-unknown');
  });
});
