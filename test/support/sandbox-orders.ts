import { expect } from 'vitest';
import { Order, OrderList, type OrderStatus, type OrderV101 } from '@shared/api';
import { validOrderBody, type TestSandbox } from './sandbox';

/** Small helpers shared by the black-box order tests. */

/** Creates a valid 1.0.2 order (optionally with changes to the body) and returns it parsed. */
export async function createOrder(
  sandbox: TestSandbox,
  overrides: Record<string, unknown> = {},
): Promise<Order> {
  const res = await sandbox.api('POST', '/v1/orders', validOrderBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return Order.parse(res.body);
}

/** Moves an order along the fulfillment chain with the sandbox control. */
export async function advanceOrder(
  sandbox: TestSandbox,
  orderId: string,
  to: OrderStatus,
): Promise<Order> {
  const res = await sandbox.api('POST', `/_sandbox/orders/${orderId}/advance`, { to });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const order = Order.parse(res.body);
  expect(order.status).toBe(to);
  return order;
}

/** Every order the partner has, newest first, read page by page through list orders. */
export async function listAllOrders(sandbox: TestSandbox, status?: string): Promise<OrderV101[]> {
  const all: OrderV101[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100' });
    if (status) query.set('status', status);
    if (cursor) query.set('cursor', cursor);
    const res = await sandbox.api('GET', `/v1/orders?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = OrderList.parse(res.body);
    all.push(...page.orders);
    cursor = page.cursor;
  } while (cursor);
  return all;
}

export const countOrders = async (sandbox: TestSandbox): Promise<number> =>
  (await listAllOrders(sandbox)).length;
