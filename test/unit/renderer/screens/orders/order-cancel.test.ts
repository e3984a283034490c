import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '@shared/api';
import { cancelBlockedReason } from '@renderer/lib/order-format';

describe('why an order offers no Cancel', () => {
  it('offers it only while NEW, as the spec allows', () => {
    expect(cancelBlockedReason({ status: 'NEW' })).toBeNull();
    for (const status of ORDER_STATUSES.filter((s) => s !== 'NEW'))
      expect(cancelBlockedReason({ status }), status).not.toBeNull();
  });

  it('names the rule and the state the order is in', () => {
    expect(cancelBlockedReason({ status: 'SHIPPED' })).toBe(
      'Orders can be cancelled only while New, before processing starts; this one is Shipped.',
    );
    expect(cancelBlockedReason({ status: 'AWAITING_SHIPMENT' })).toMatch(
      /this one is Awaiting shipment\.$/,
    );
    expect(cancelBlockedReason({ status: 'CANCELLED' })).toBe('This order is already cancelled.');
  });
});
