import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetail, OrderList, OrderV101, type Order, type OrderStatus } from '@shared/api';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { advanceOrder, createOrder, listAllOrders } from '@test/support/sandbox-orders';

/** Black-box tests of list orders: the 1.0.1 shape, the status filter and the 1.0.1 status mapping. */

let sandbox: TestSandbox;
/** Order id by the 1.0.2 status it was moved to (plus NEW and CANCELLED). */
const ids = {} as Record<OrderStatus, string>;
let created: Order[];

const TARGETS: OrderStatus[] = [
  'PROCESSING',
  'DISPENSING',
  'FILLED',
  'FULFILLED',
  'AWAITING_SHIPMENT',
  'SHIPPED',
  'DELIVERED',
];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  created = [];
  // One order per 1.0.2 status, created in this order: NEW, PROCESSING, ..., DELIVERED, CANCELLED.
  for (const status of ['NEW', ...TARGETS, 'CANCELLED'] as OrderStatus[]) {
    const order = await createOrder(sandbox, {
      shippingMethod: status === 'DELIVERED' ? 'OVERNIGHT' : 'STANDARD',
    });
    created.push(order);
    ids[status] = order.id;
  }
  for (const status of TARGETS) await advanceOrder(sandbox, ids[status], status);
  const cancel = await sandbox.api('POST', `/v1/orders/${ids.CANCELLED}/cancel`);
  expect(cancel.status).toBe(200);
});
afterAll(() => sandbox.close());

const idsOf = (orders: { id: string }[]) => orders.map((o) => o.id);
/** Newest first: the reverse of creation order. */
const newestFirst = (...statuses: OrderStatus[]) =>
  created
    .map((o) => o.id)
    .filter((id) => statuses.some((s) => ids[s] === id))
    .reverse();

describe('list orders', () => {
  it('answers {orders, cursor} with every order in the 1.0.1 shape, newest first', async () => {
    const res = await sandbox.api('GET', '/v1/orders?limit=100');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['cursor', 'orders']);
    const list = OrderList.parse(res.body);
    expect(list.cursor).toBeNull();
    expect(idsOf(list.orders)).toEqual(created.map((o) => o.id).reverse());
    for (const order of list.orders) {
      expect(order.orderType).toBe('ONE-TIME');
      expect(order.customer.address.zip).toBe('97210');
      expect(order.customer.address).not.toHaveProperty('zipCode');
      for (const li of order.lineItems) {
        expect(Object.keys(li).sort()).toEqual([
          'administration',
          'discountedPrice',
          'packDescription',
          'price',
          'productId',
          'quantity',
        ]);
      }
    }
  });

  it('reports each 1.0.2 status in the 1.0.1 set, the same in list and get', async () => {
    const expected: Record<OrderStatus, string> = {
      NEW: 'CREATED',
      PROCESSING: 'PROCESSING',
      DISPENSING: 'PROCESSING',
      FILLED: 'PROCESSING',
      FULFILLED: 'FULFILLED',
      AWAITING_SHIPMENT: 'AWAITING_SHIPMENT',
      SHIPPED: 'SHIPPED',
      DELIVERED: 'SHIPPED',
      CANCELLED: 'CANCELLED',
    };
    const listed = new Map((await listAllOrders(sandbox)).map((o) => [o.id, o]));
    for (const [status, v101] of Object.entries(expected) as [OrderStatus, string][]) {
      expect(listed.get(ids[status])?.status, status).toBe(v101);
      const got = await sandbox.api('GET', `/v1/orders/${ids[status]}`);
      expect(got.status).toBe(200);
      expect(OrderV101.parse(got.body).status, status).toBe(v101);
    }
  });

  it('reduces fulfillmentInfo to carrier and trackingNumber once shipped, and null before', async () => {
    const listed = new Map((await listAllOrders(sandbox)).map((o) => [o.id, o]));
    for (const status of ['NEW', 'PROCESSING', 'AWAITING_SHIPMENT', 'CANCELLED'] as OrderStatus[]) {
      expect(listed.get(ids[status])?.fulfillmentInfo, status).toBeNull();
    }
    const shipped = listed.get(ids.SHIPPED)!.fulfillmentInfo!;
    expect(Object.keys(shipped).sort()).toEqual(['carrier', 'trackingNumber']);
    expect(shipped.carrier).toBe('USPS');
    expect(shipped.trackingNumber).toMatch(/^9400\d{18}$/);
    const delivered = listed.get(ids.DELIVERED)!.fulfillmentInfo!;
    expect(Object.keys(delivered).sort()).toEqual(['carrier', 'trackingNumber']);
    expect(delivered.carrier).toBe('FedEx');
    expect(delivered.trackingNumber).toMatch(/^7749\d{18}$/);
  });

  it('filters by each 1.0.1 status, newest first', async () => {
    const cases: [string, OrderStatus[]][] = [
      ['CREATED', ['NEW']],
      ['PROCESSING', ['PROCESSING', 'DISPENSING', 'FILLED']],
      ['FULFILLED', ['FULFILLED']],
      ['AWAITING_SHIPMENT', ['AWAITING_SHIPMENT']],
      ['SHIPPED', ['SHIPPED', 'DELIVERED']],
      ['CANCELLED', ['CANCELLED']],
    ];
    for (const [filter, statuses] of cases) {
      const res = await sandbox.api('GET', `/v1/orders?status=${filter}`);
      expect(res.status, filter).toBe(200);
      const list = OrderList.parse(res.body);
      expect(idsOf(list.orders), filter).toEqual(newestFirst(...statuses));
      expect(
        list.orders.every((o) => o.status === filter),
        filter,
      ).toBe(true);
      expect(list.cursor).toBeNull();
    }
  });

  it('follows a status change: a cancelled order leaves CREATED and joins CANCELLED', async () => {
    const order = await createOrder(sandbox);
    expect(idsOf(await listAllOrders(sandbox, 'CREATED'))).toEqual([order.id, ids.NEW]);
    expect((await sandbox.api('POST', `/v1/orders/${order.id}/cancel`)).status).toBe(200);
    expect(idsOf(await listAllOrders(sandbox, 'CREATED'))).toEqual([ids.NEW]);
    expect(idsOf(await listAllOrders(sandbox, 'CANCELLED'))).toEqual([order.id, ids.CANCELLED]);
  });

  it('answers 400 with detail to a status outside the 1.0.1 set', async () => {
    for (const status of ['NEW', 'DISPENSING', 'DELIVERED', 'created', 'BOGUS', '']) {
      const res = await sandbox.api('GET', `/v1/orders?status=${status}`);
      expect(res.status, status).toBe(400);
      expect(ErrorDetail.strict().parse(res.body).detail).toMatch(/status/);
    }
  });
});
