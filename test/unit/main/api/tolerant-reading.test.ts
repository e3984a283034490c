import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClientError } from '@main/api/errors';
import { describeSkipped, parseList } from '@main/api/http';
import { isPollFinal, mergeOrder } from '@main/orders/order-merge';
import {
  OrderStatusRead,
  OrderV101Read,
  ProductRead,
  UnknownValue,
  normalizeOrderV101,
  type OrderStatusRead as Status,
} from '@shared/api';
import { appOrder, coarse, memoryStore, product } from '@test/support/store-fixtures';

const unknown = (value: string) => UnknownValue.parse(value);
const at = (minutes: number) =>
  new Date(Date.parse('2025-03-01T10:00:00Z') + minutes * 60_000).toISOString();

describe('open enums', () => {
  it('keep a value the app does not know as it came; an empty or overlong one is not a value', () => {
    expect(OrderStatusRead.parse('NEW')).toBe('NEW');
    expect(OrderStatusRead.parse('ON_HOLD')).toBe('ON_HOLD');
    expect(OrderStatusRead.safeParse('').success).toBe(false);
    expect(OrderStatusRead.safeParse('X'.repeat(101)).success).toBe(false);
    expect(OrderStatusRead.safeParse(3).success).toBe(false);
  });

  it('a 1.0.1 order in a status and type the app does not know is read and normalised', () => {
    const { status: _status, orderType: _type, ...rest } = appOrder('o1');
    const v101 = {
      ...rest,
      status: 'ON_HOLD',
      orderType: 'STANDING_ORDER',
      customer: { ...rest.customer, address: { ...rest.customer.address, zip: '97210' } },
      lineItems: [{ ...rest.lineItems[0]!, packDescription: '1 capsule' }],
    };
    const order = normalizeOrderV101(OrderV101Read.parse(v101));
    expect(order).toMatchObject({
      status: 'ON_HOLD',
      orderType: 'STANDING_ORDER',
      statusPrecision: 'coarse',
    });
  });

  it('a product of a form, status or serving type the app does not know is read as it came', () => {
    const p = product(1001);
    const read = ProductRead.parse({
      ...p,
      form: 'lozenge',
      status: 'RECALLED',
      SupplementFactsPanel: { ...p.SupplementFactsPanel, type: 'sachet' },
    });
    expect([read.form, read.status, read.SupplementFactsPanel.type]).toEqual([
      'lozenge',
      'RECALLED',
      'sachet',
    ]);
  });
});

describe('an unknown order status in the mirror', () => {
  it('is taken over a coarse status and gives way to one again; it is never final', () => {
    const processing = coarse(appOrder('o1', { status: 'PROCESSING', updatedAt: at(5) }));
    const onHold = coarse(appOrder('o1', { status: unknown('ON_HOLD'), updatedAt: at(5) }));
    expect(mergeOrder(processing, onHold).status).toBe('ON_HOLD');
    expect(mergeOrder(onHold, processing).status).toBe('PROCESSING');
    // An exact DISPENSING read as ON_HOLD (another class) is taken as read, marked coarse.
    const dispensing = appOrder('o1', { status: 'DISPENSING', updatedAt: at(5) });
    expect(mergeOrder(dispensing, onHold)).toMatchObject({
      status: 'ON_HOLD',
      statusPrecision: 'coarse',
    });
    expect(isPollFinal(unknown('ON_HOLD'))).toBe(false);
    expect(isPollFinal('SHIPPED')).toBe(true);
  });

  it('is stored, followed, counted and filtered as it came', () => {
    const store = memoryStore();
    store.orders.upsert(appOrder('o1'), { source: 'pulled' });
    store.orders.upsert(appOrder('o2', { status: unknown('ON_HOLD') }), { source: 'pulled' });
    store.orders.upsert(appOrder('o3', { status: unknown('ON_HOLD') }), { source: 'pulled' });
    store.orders.upsert(appOrder('o4', { status: 'SHIPPED' }), { source: 'pulled' });
    const counts = store.orders.countByStatus();
    expect(counts).toMatchObject({ NEW: 1, SHIPPED: 1, ON_HOLD: 2, CANCELLED: 0 });
    const onHold = [unknown('ON_HOLD')] as Status[];
    expect(store.orders.list({ statuses: onHold }).map((o) => o.id)).toEqual(['o3', 'o2']);
    const due = store.orders.dueForPolling(Date.now() + 1, 10).map((d) => d.order.id);
    expect(due.sort()).toEqual(['o1', 'o2', 'o3']);
    expect(store.orders.timeline('o2').map((c) => c.status)).toEqual(['ON_HOLD']);
  });
});

describe('list answers read item by item', () => {
  const body = (orders: unknown[], cursor: unknown = 'c2') => JSON.stringify({ orders, cursor });
  const item = (id: string, ok = true) => (ok ? { id, n: 1 } : { id, n: 'one' });

  it('leaves out an item that does not parse, with its id and problems, and keeps the rest', () => {
    const Item = z.object({ id: z.string(), n: z.int() });
    const page = parseList(
      'orders',
      Item,
      body([item('a'), item('b', false), item('c'), 'x']),
      'x',
      200,
    );
    expect(page.items.map((i) => i.id)).toEqual(['a', 'c']);
    expect(page.cursor).toBe('c2');
    expect(page.skipped).toEqual([
      { index: 1, id: 'b', problems: ['n: Invalid input: expected number, received string'] },
      { index: 3, id: null, problems: [expect.stringMatching(/^\(item\): /)] },
    ]);
    expect(describeSkipped('order', page.skipped[0]!)).toBe(
      'order b could not be read (n: Invalid input: expected number, received string)',
    );
    expect(describeSkipped('order', page.skipped[1]!)).toMatch(
      /^order at position 4 could not be read/,
    );
  });

  it('still refuses a page whose envelope is not a list with its cursor', () => {
    const Item = z.object({ id: z.string() });
    expect(() => parseList('orders', Item, JSON.stringify({ orders: [] }), 'x', 200)).toThrow(
      ApiClientError,
    );
    expect(() =>
      parseList('orders', Item, JSON.stringify({ orders: {}, cursor: null }), 'x', 200),
    ).toThrow(ApiClientError);
    expect(
      parseList('methods', Item, JSON.stringify({ methods: [] }), 'x', 200, { paged: false }),
    ).toEqual({ items: [], cursor: null, skipped: [] });
  });
});
