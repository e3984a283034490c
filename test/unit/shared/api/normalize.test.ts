import { describe, expect, it } from 'vitest';
import {
  AppOrder,
  ORDER_STATUSES,
  Order,
  OrderV101,
  normalizeOrder,
  normalizeOrderV101,
  statusFromV101,
  statusToV101,
} from '@shared/api';

const base = {
  id: 'ord_1',
  discount: '15%',
  daysSupply: 30,
  shippingMethod: 'STANDARD',
  subtotalPrice: '59.90',
  totalDiscount: '9.90',
  totalFees: '5.00',
  totalShipping: '7.95',
  totalVolumeDiscount: '0.00',
  totalPrice: '67.85',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

const v101 = OrderV101.parse({
  ...base,
  orderType: 'ONE-TIME',
  status: 'CREATED',
  fulfillmentInfo: { carrier: 'UPS', trackingNumber: '1Z999' },
  lineItems: [
    {
      productId: 1001,
      quantity: 2,
      packDescription: '1 capsule',
      price: '0.18',
      discountedPrice: '0.15',
      administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
    },
  ],
  customer: {
    sourceId: 'p-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    address: { line1: '1 Main St', city: 'Portland', state: 'OR', zip: '97210' },
  },
});

describe('normalising 1.0.1 reads', () => {
  it('maps ONE-TIME, CREATED, zip and fills what 1.0.1 does not carry with null', () => {
    const app = AppOrder.parse(normalizeOrderV101(v101));
    expect(app.orderType).toBe('ONE_TIME');
    expect(app.status).toBe('NEW');
    expect(app.statusPrecision).toBe('coarse');
    expect(app.customer.address).toEqual({
      line1: '1 Main St',
      line2: null,
      city: 'Portland',
      state: 'OR',
      zipCode: '97210',
    });
    expect(app.customer.email).toBeNull();
    expect(app.fulfillmentInfo).toEqual({
      carrier: 'UPS',
      trackingNumber: '1Z999',
      trackingStatus: null,
      trackingUrl: null,
      checkpoints: null,
    });
    expect(app.lineItems[0]).toMatchObject({
      name: null,
      totalPrice: null,
      external: null,
      imageUrl: null,
      packDescription: '1 capsule',
    });
  });

  it('keeps a 1.0.2 order exact and marks packDescription absent as null', () => {
    const order = Order.parse({
      ...base,
      orderType: 'SUBSCRIPTION',
      status: 'DISPENSING',
      fulfillmentInfo: null,
      lineItems: [
        {
          productId: 1035,
          name: 'Powder',
          quantity: 1,
          price: '54.00',
          discountedPrice: '45.90',
          totalPrice: '45.90',
          external: true,
          imageUrl: null,
          administration: null,
        },
      ],
      customer: {
        sourceId: 'p-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: null,
        phone: null,
        address: {
          line1: '1 Main St',
          line2: null,
          city: 'Portland',
          state: 'OR',
          zipCode: '97210',
        },
      },
    });
    const app = AppOrder.parse(normalizeOrder(order));
    expect(app.status).toBe('DISPENSING');
    expect(app.statusPrecision).toBe('exact');
    expect(app.lineItems[0]!.packDescription).toBeNull();
  });

  it('maps every 1.0.2 status to a 1.0.1 status that maps back to a status at or before it', () => {
    const expected = {
      NEW: 'CREATED',
      PROCESSING: 'PROCESSING',
      DISPENSING: 'PROCESSING',
      FILLED: 'PROCESSING',
      FULFILLED: 'FULFILLED',
      AWAITING_SHIPMENT: 'AWAITING_SHIPMENT',
      SHIPPED: 'SHIPPED',
      DELIVERED: 'SHIPPED',
      CANCELLED: 'CANCELLED',
    } as const;
    for (const s of ORDER_STATUSES) {
      expect(statusToV101(s)).toBe(expected[s]);
      expect(ORDER_STATUSES.indexOf(statusFromV101(statusToV101(s)))).toBeLessThanOrEqual(
        ORDER_STATUSES.indexOf(s),
      );
    }
  });
});
