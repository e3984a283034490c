import { afterEach, describe, expect, it } from 'vitest';
import type { AppOrder, CreateOrderRequest, ProtocolRequest } from '@shared/api';
import { validOrderBody } from '@test/support/sandbox';
import { fakeClock, startClientHarness, type ClientHarness } from '@test/support/client-harness';

let h: ClientHarness | null = null;
afterEach(async () => {
  await h?.sandbox.close();
  h = null;
});

const orderBody = (
  sourceId = 'patient-0001',
  overrides: Record<string, unknown> = {},
): CreateOrderRequest => {
  const body = validOrderBody(overrides) as CreateOrderRequest;
  return { ...body, customer: { ...body.customer, sourceId } };
};
const protocolBody = (lastName = 'Lovelace', daysSupply: 30 | 60 | 90 = 30): ProtocolRequest => {
  const body = validOrderBody({ daysSupply }) as ProtocolRequest;
  return { ...body, customer: { ...body.customer, lastName } };
};

describe('ApiClient: orders', () => {
  it('createOrder returns the 1.0.2 order as the server stored it', async () => {
    h = await startClientHarness();
    const order = await h.client.createOrder(orderBody('p-1'));
    expect(order.id).toMatch(/^ord_/);
    expect(order.status).toBe('NEW');
    expect(order.customer.sourceId).toBe('p-1');
    expect(order.customer.address.zipCode).toBe('97210');
    expect(order.lineItems.map((li) => [li.productId, li.quantity, li.external])).toEqual([
      [1001, 2, false],
      [1035, 1, true],
    ]);
    expect(order.fulfillmentInfo).toBeNull();
    const raw = await h.sandbox.api('GET', `/v1/orders/${order.id}`);
    expect(raw.status).toBe(200);
    expect(order.totalPrice).toBe(raw.body.totalPrice);
    expect(order.subtotalPrice).toBe(raw.body.subtotalPrice);
  });

  it('listOrders normalises the 1.0.1 shape and pages with the cursor', async () => {
    h = await startClientHarness();
    const created: AppOrder[] = [];
    for (const id of ['p-1', 'p-2', 'p-3']) created.push(await h.client.createOrder(orderBody(id)));
    const first = await h.client.listOrders({ limit: 2 });
    expect(first.orders).toHaveLength(2);
    expect(first.cursor).not.toBeNull();
    const second = await h.client.listOrders({
      limit: 2,
      cursor: first.cursor!,
      direction: 'next',
    });
    expect(second.orders).toHaveLength(1);
    expect(second.cursor).toBeNull();
    const all = [...first.orders, ...second.orders];
    expect(all.map((o) => o.id).sort()).toEqual(created.map((o) => o.id).sort());
    const one = all.find((o) => o.id === created[0]!.id)!;
    expect(one.status).toBe('NEW'); // 1.0.1 CREATED
    expect(one.statusPrecision).toBe('coarse');
    expect(one.orderType).toBe('ONE_TIME'); // 1.0.1 ONE-TIME
    expect(one.customer.address.zipCode).toBe('97210'); // 1.0.1 zip
    expect(one.totalPrice).toBe(created[0]!.totalPrice);
    expect(one.lineItems[0]!.name).toBeNull(); // not in the 1.0.1 line item
  });

  it('listOrders filters by the 1.0.1 status', async () => {
    h = await startClientHarness();
    const a = await h.client.createOrder(orderBody('p-a'));
    const b = await h.client.createOrder(orderBody('p-b'));
    await h.client.cancelOrder(b.id);
    const open = await h.client.listOrders({ status: 'CREATED' });
    const cancelled = await h.client.listOrders({ status: 'CANCELLED' });
    expect(open.orders.map((o) => o.id)).toEqual([a.id]);
    expect(cancelled.orders.map((o) => o.id)).toEqual([b.id]);
    expect(cancelled.orders[0]!.status).toBe('CANCELLED');
  });

  it('getOrder reads one order; cancelOrder cancels a NEW order', async () => {
    h = await startClientHarness();
    const created = await h.client.createOrder(orderBody('p-9'));
    const read = await h.client.getOrder(created.id);
    expect(read.id).toBe(created.id);
    expect(read.customer.sourceId).toBe('p-9');
    expect(read.totalPrice).toBe(created.totalPrice);
    const cancelled = await h.client.cancelOrder(created.id);
    expect(cancelled.id).toBe(created.id);
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.statusPrecision).toBe('exact');
    expect((await h.client.getOrder(created.id)).status).toBe('CANCELLED');
  });
});

describe('ApiClient: protocols', () => {
  it('create, list with search, get, replace and delete', async () => {
    h = await startClientHarness();
    const ada = await h.client.createProtocol(protocolBody('Lovelace'));
    const alan = await h.client.createProtocol(protocolBody('Turing'));
    expect(ada.id).toMatch(/^prt_/);
    expect(ada.customer.lastName).toBe('Lovelace');
    expect(ada.daysSupply).toBe(30);
    expect(ada.totalPrice).toMatch(/^\d+\.\d{2}$/);

    const found = await h.client.listProtocols({ search: 'turing' });
    expect(found.protocols.map((p) => p.id)).toEqual([alan.id]);
    const all = await h.client.listProtocols({ limit: 1 });
    expect(all.protocols).toHaveLength(1);
    expect(all.cursor).not.toBeNull();

    expect(await h.client.getProtocol(ada.id)).toEqual(ada);

    const replaced = await h.client.replaceProtocol(ada.id, protocolBody('Lovelace', 90));
    expect(replaced.id).toBe(ada.id);
    expect(replaced.daysSupply).toBe(90);
    expect(Number(replaced.totalPrice)).toBeGreaterThan(Number(ada.totalPrice));
    expect((await h.client.getProtocol(ada.id)).daysSupply).toBe(90);

    const deleted = await h.client.deleteProtocol(ada.id);
    expect(deleted.protocolId).toBe(ada.id);
    expect(deleted.message.length).toBeGreaterThan(0);
    await expect(h.client.getProtocol(ada.id)).rejects.toMatchObject({
      kind: 'not-found',
      status: 404,
    });
    expect((await h.client.listProtocols()).protocols.map((p) => p.id)).toEqual([alan.id]);
  });
});

describe('ApiClient: catalog', () => {
  it('listProducts, status filter, updatedAfter, getProduct', async () => {
    const clock = fakeClock();
    h = await startClientHarness({ runtime: { clock } });
    const page = await h.client.listProducts();
    expect(page.products).toHaveLength(10);
    expect(page.cursor).not.toBeNull();
    const ids = page.products.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const active = await h.client.listProducts({ status: 'ACTIVE', limit: 100 });
    expect(active.products.length).toBeGreaterThan(0);
    expect(active.products.every((p) => p.status === 'ACTIVE')).toBe(true);

    clock.advance(2 * 86_400_000);
    h.sandbox.token = await h.sandbox.fetchToken(); // the helper's token has expired on the sandbox clock
    const changed = await h.sandbox.api('PATCH', '/_sandbox/products/1001', { price: '9.99' });
    expect(changed.status).toBe(200);
    const since = new Date(clock.now() - 86_400_000).toISOString();
    const recent = await h.client.listProducts({ updatedAfter: since });
    expect(recent.products.map((p) => [p.id, p.price])).toEqual([[1001, '9.99']]);

    const product = await h.client.getProduct(1001);
    expect(product.id).toBe(1001);
    expect(product.price).toBe('9.99');
    expect(product.name).toBe(page.products.find((p) => p.id === 1001)!.name);
    await expect(h.client.getProduct(999_999)).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('listShippingMethods', async () => {
    h = await startClientHarness();
    const { shippingMethods: methods, skipped } = await h.client.listShippingMethods();
    expect(skipped).toEqual([]);
    expect(methods.map((m) => m.id)).toEqual(['STANDARD', 'EXPRESS', 'OVERNIGHT']);
    expect(methods.every((m) => /^\d+\.\d{2}$/.test(m.price) && m.minDays <= m.maxDays)).toBe(true);
  });
});

describe('ApiClient: partner settings and webhook secret', () => {
  it('reads and patches settings', async () => {
    h = await startClientHarness();
    const settings = await h.client.getPartnerSettings();
    expect(settings.id).toBe('ptn_demo_clinic');
    expect(settings.webhookUrl).toBeNull();
    const patched = await h.client.updatePartnerSettings({
      primaryColor: '#123456',
      billingCity: null,
    });
    expect(patched.primaryColor).toBe('#123456');
    expect(patched.billingCity).toBeNull();
    expect(patched.name).toBe(settings.name);
    expect((await h.client.getPartnerSettings()).primaryColor).toBe('#123456');
  });

  it('webhook secret: null without a webhookUrl, then read and rotated', async () => {
    h = await startClientHarness();
    expect(await h.client.getWebhookSecret()).toBeNull();
    await expect(h.client.rotateWebhookSecret()).rejects.toMatchObject({ kind: 'not-found' });
    await h.client.updatePartnerSettings({ webhookUrl: 'https://clinic.example/hooks' });
    const secret = await h.client.getWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    const rotated = await h.client.rotateWebhookSecret();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await h.client.getWebhookSecret()).toBe(rotated);
  });
});
