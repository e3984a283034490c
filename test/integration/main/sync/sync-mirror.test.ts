import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SYNC_KEYS } from '@main/db';
import type { Product, Protocol } from '@shared/api';
import { advanceOrder, createOrder } from '@test/support/sandbox-orders';
import {
  deleteOnServer,
  editOnServer,
  protocolRequest,
  startSyncHarness,
  type SyncHarness,
} from '@test/support/sync-harness';

let h: SyncHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const productCursor = () => h!.store.syncState.get(SYNC_KEYS.productsUpdatedAfter, z.string());
const productCalls = () => h!.net.calls.filter((c) => c.path === '/v1/products');

describe('mirror pull', () => {
  it('products: a full first pull, then only what changed since the cursor', async () => {
    h = await startSyncHarness();
    const catalog = await h.sandbox.api<{ products: Product[] }>('GET', '/v1/products?limit=100');
    const total = catalog.body.products.length;
    expect(total).toBeGreaterThan(10);

    const first = await h.engine.syncNow();
    expect(first.pull?.products).toEqual({ fetched: total, changed: total });
    expect(h.store.products.count()).toBe(total);
    const cursor = productCursor()!;
    const newest = h.store.products
      .list()
      .map((p) => p.updatedAt)
      .sort((a, b) => Date.parse(b) - Date.parse(a))[0];
    expect(cursor).toBe(newest);
    expect(new URL(productCalls()[0]!.url).searchParams.has('updatedAfter')).toBe(false);

    const patched = await h.sandbox.api<Product>('PATCH', '/_sandbox/products/1003', {
      price: '9.99',
    });
    expect(patched.status).toBe(200);
    const before = h.store.products.get(1005);
    const second = await h.engine.syncNow();
    // The overlap re-reads at most the product at the old cursor; only the patched one is written.
    expect(second.pull?.products.changed).toBe(1);
    expect(second.pull?.products.fetched).toBeLessThanOrEqual(2);
    const asked = new URL(productCalls().at(-1)!.url).searchParams.get('updatedAfter')!;
    expect(Date.parse(asked)).toBeLessThan(Date.parse(cursor));
    expect(h.store.products.get(1003)?.price).toBe('9.99');
    expect(h.store.products.get(1005)).toEqual(before);
    expect(productCursor()).toBe(patched.body.updatedAt);

    const third = await h.engine.syncNow();
    expect(third.pull?.products).toEqual({ fetched: 1, changed: 0 });
    expect(productCursor()).toBe(patched.body.updatedAt);
  });

  it('protocols: created on the server appear, edited ones refresh, deleted ones disappear', async () => {
    h = await startSyncHarness();
    const made: Protocol[] = [];
    for (const name of ['North', 'South', 'East']) {
      const res = await h.sandbox.api<Protocol>('POST', '/v1/protocols', protocolRequest(name));
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const first = await h.engine.syncNow();
    expect(first.pull?.protocols).toMatchObject({ inserted: 3, removed: 0 });
    for (const p of made) {
      expect(h.store.protocols.getByServerId(p.id)).toMatchObject({
        syncState: 'synced',
        baseUpdatedAt: p.updatedAt,
      });
    }
    expect(h.store.protocols.search('south').map((s) => s.serverId)).toEqual([made[1]!.id]);

    const edited = await editOnServer(h.sandbox, made[0]!.id, protocolRequest('Northwest'));
    await deleteOnServer(h.sandbox, made[2]!.id);
    const second = await h.engine.syncNow();
    expect(second.pull?.protocols).toMatchObject({ inserted: 0, refreshed: 1, removed: 1 });
    expect(h.store.protocols.getByServerId(made[0]!.id)).toMatchObject({
      customerName: 'Ada Northwest',
      baseUpdatedAt: edited.updatedAt,
    });
    expect(h.store.protocols.getByServerId(made[2]!.id)).toBeNull();
    expect(h.store.protocols.count()).toBe(2);
  });

  it('protocols: more than one page is walked completely', async () => {
    h = await startSyncHarness();
    for (let i = 0; i < 105; i++) {
      const res = await h.sandbox.api('POST', '/v1/protocols', protocolRequest(`P${i}`));
      expect(res.status).toBe(201);
    }
    const report = await h.engine.syncNow();
    expect(report.pull?.protocols?.inserted).toBe(105);
    expect(h.store.protocols.count()).toBe(105);
    expect(h.net.count('GET', '/v1/protocols')).toBe(2);
  });

  it('orders: recent orders are pulled with their statuses, and a change is reported', async () => {
    h = await startSyncHarness();
    const a = await createOrder(h.sandbox);
    const b = await createOrder(h.sandbox);
    await advanceOrder(h.sandbox, b.id, 'DISPENSING');
    const first = await h.engine.syncNow();
    expect(first.pull?.orders).toMatchObject({ fetched: 2, changed: 2 });
    expect(h.store.orders.get(a.id)?.status).toBe('NEW');
    expect(h.store.orders.get(b.id)).toMatchObject({
      status: 'PROCESSING',
      statusPrecision: 'coarse',
    });

    await advanceOrder(h.sandbox, b.id, 'SHIPPED');
    const second = await h.engine.syncNow();
    expect(second.pull?.orders).toMatchObject({ fetched: 2, changed: 1, statusChanged: 1 });
    expect(h.store.orders.get(b.id)?.status).toBe('SHIPPED');
    expect(h.eventsOf('order-status')).toEqual([
      expect.objectContaining({ orderId: b.id, previous: 'PROCESSING', status: 'SHIPPED' }),
    ]);
  });

  it('orders older than the window are not pulled', async () => {
    h = await startSyncHarness({ engine: { pull: { ordersWindowMs: 60_000 } } });
    const old = await createOrder(h.sandbox);
    h.clock.advance(5 * 60_000); // our clock: five minutes later
    const report = await h.engine.syncNow();
    expect(report.pull?.orders?.fetched).toBe(0);
    expect(h.store.orders.get(old.id)).toBeNull();
  });

  it('shipping methods are mirrored', async () => {
    h = await startSyncHarness();
    const res = await h.sandbox.api<{ shippingMethods: { id: string }[] }>(
      'GET',
      '/v1/shipping-methods',
    );
    const report = await h.engine.syncNow();
    expect(report.pull?.shippingMethods).toEqual({ changed: true });
    expect(h.store.shippingMethods.list().map((m) => m.id)).toEqual(
      res.body.shippingMethods.map((m) => m.id),
    );
    expect((await h.engine.syncNow()).pull?.shippingMethods).toEqual({ changed: false });
  });
});
