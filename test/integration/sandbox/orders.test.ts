import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorDetail,
  Order,
  OrderV101,
  Product,
  type DaysSupply,
  type ShippingMethod,
} from '@shared/api';
import { priceOrder } from '@shared/pricing';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { advanceOrder, countOrders, createOrder } from '@test/support/sandbox-orders';

/** Black-box tests of create, get and cancel order: shapes, values and versions. */

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function product(id: number): Promise<Product> {
  const res = await sandbox.api('GET', `/v1/products/${id}`);
  expect(res.status).toBe(200);
  return Product.parse(res.body);
}

/** The pricing the service must apply: the shared pricing function with catalog prices and the partner discount. */
async function expectedPricing(body: ReturnType<typeof validOrderBody>) {
  const settings = await sandbox.api('GET', '/v1/partners/settings');
  expect(settings.status).toBe(200);
  const items = body.lineItems as { productId: number; quantity: number }[];
  const products = await Promise.all(items.map((li) => product(li.productId)));
  return priceOrder({
    daysSupply: body.daysSupply as DaysSupply,
    shippingMethod: body.shippingMethod as ShippingMethod,
    discountValue: (settings.body as { discountValue: number | null }).discountValue,
    lineItems: items.map((li, i) => ({
      quantity: li.quantity,
      price: products[i]!.price,
      external: products[i]!.external,
    })),
  });
}

const v101Body = () => {
  const body = validOrderBody({ orderType: 'ONE-TIME' });
  const { zipCode, ...address } = body.customer.address;
  return {
    ...body,
    customer: { ...body.customer, address: { ...address, zip: `${zipCode}-1234` } },
    lineItems: [
      { ...body.lineItems[0]! },
      { ...body.lineItems[1]!, packDescription: '1 scoop daily' },
    ],
  };
};

describe('create order (1.0.2)', () => {
  it('answers 201 with the 1.0.2 order, priced by the pricing function', async () => {
    const body = validOrderBody();
    const res = await sandbox.api('POST', '/v1/orders', body);
    expect(res.status).toBe(201);
    const order = Order.parse(res.body);
    const pricing = await expectedPricing(body);

    expect(order).toMatchObject({
      discount: '15%',
      daysSupply: 30,
      orderType: 'ONE_TIME',
      shippingMethod: 'STANDARD',
      status: 'NEW',
      fulfillmentInfo: null,
      subtotalPrice: pricing.subtotalPrice,
      totalDiscount: pricing.totalDiscount,
      totalFees: pricing.totalFees,
      totalShipping: pricing.totalShipping,
      totalVolumeDiscount: pricing.totalVolumeDiscount,
      totalPrice: pricing.totalPrice,
    });
    // The same figures worked by hand: 1001 at 0.18 less 15% is 0.15 x 2 pills x 30 days = 9.00;
    // 1035 at 54.00 less 15% is 45.90 for one 30-day unit, plus a 5.00 handling fee; STANDARD is 7.95.
    expect(order.lineItems.map((li) => [li.price, li.discountedPrice, li.totalPrice])).toEqual([
      ['0.18', '0.15', '9.00'],
      ['54.00', '45.90', '45.90'],
    ]);
    expect([order.subtotalPrice, order.totalDiscount, order.totalFees, order.totalPrice]).toEqual([
      '59.90',
      '9.90',
      '5.00',
      '67.85',
    ]);
    expect(order.id).toMatch(/^ord_/);
    expect(order.createdAt).toBe(order.updatedAt);
  });

  it('describes each line item from the catalog; packDescription is absent on the external item', async () => {
    const res = await sandbox.api('POST', '/v1/orders', validOrderBody());
    const order = Order.parse(res.body);
    const [pack, external] = order.lineItems;
    const [p1001, p1035] = [await product(1001), await product(1035)];
    expect(pack).toEqual({
      productId: 1001,
      name: p1001.name,
      quantity: 2,
      packDescription: '1 capsule',
      price: p1001.price,
      discountedPrice: '0.15',
      totalPrice: '9.00',
      external: false,
      imageUrl: p1001.productImage,
      administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
    });
    expect(external).toMatchObject({
      productId: 1035,
      name: p1035.name,
      quantity: 1,
      external: true,
      administration: null,
    });
    const rawItems = (res.body as { lineItems: Record<string, unknown>[] }).lineItems;
    expect(rawItems[1]).not.toHaveProperty('packDescription');
    expect(rawItems[0]).toHaveProperty('packDescription', '1 capsule');
  });

  it('keeps a packDescription sent for an external item for the 1.0.1 reads, and leaves it out of 1.0.2 answers', async () => {
    const base = validOrderBody();
    const body = {
      ...base,
      lineItems: [base.lineItems[0]!, { ...base.lineItems[1]!, packDescription: '2 scoops daily' }],
    };
    const res = await sandbox.api('POST', '/v1/orders', body);
    expect(res.status).toBe(201);
    const created = res.body as { id: string; lineItems: Record<string, unknown>[] };
    expect(created.lineItems[1]).not.toHaveProperty('packDescription');
    expect(created.lineItems[0]).toHaveProperty('packDescription', '1 capsule');

    const read = await sandbox.api('GET', `/v1/orders/${created.id}`);
    expect(OrderV101.parse(read.body).lineItems.map((li) => li.packDescription)).toEqual([
      '1 capsule',
      '2 scoops daily',
    ]);
    const cancelled = await sandbox.api('POST', `/v1/orders/${created.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as typeof created).lineItems[1]).not.toHaveProperty('packDescription');
  });

  it('commits creates sent together one by one: each answer is its own order, each readable at once', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) =>
      validOrderBody({
        customer: { ...validOrderBody().customer, sourceId: `together-${i}` },
      }),
    );
    const answers = await Promise.all(bodies.map((b) => sandbox.api('POST', '/v1/orders', b)));
    const orders = answers.map((res) => {
      expect(res.status).toBe(201);
      return Order.parse(res.body);
    });
    expect(new Set(orders.map((o) => o.id)).size).toBe(12);
    expect(orders.map((o) => o.customer.sourceId)).toEqual(bodies.map((b) => b.customer.sourceId));
    for (const order of orders) {
      const read = await sandbox.api('GET', `/v1/orders/${order.id}`);
      expect(read.status).toBe(200);
      expect(OrderV101.parse(read.body).customer.sourceId).toBe(order.customer.sourceId);
    }
  });

  it('echoes the customer, with email, phone and line2 null when not given', async () => {
    const full = await createOrder(sandbox);
    expect(full.customer).toEqual({ ...validOrderBody().customer });

    const { email: _e, phone: _p, ...rest } = validOrderBody().customer;
    const { line2: _l, ...address } = rest.address;
    const res = await sandbox.api(
      'POST',
      '/v1/orders',
      validOrderBody({ customer: { ...rest, address } }),
    );
    expect(res.status).toBe(201);
    const bare = res.body as {
      customer: Record<string, unknown> & { address: Record<string, unknown> };
    };
    expect(bare.customer.email).toBeNull();
    expect(bare.customer.phone).toBeNull();
    expect(bare.customer.address.line2).toBeNull();
    expect(Order.parse(bare).customer.address).toEqual({ ...address, line2: null });
  });

  it('applies the volume discount and the shipping price of a 90-day EXPRESS subscription', async () => {
    const body = validOrderBody({
      daysSupply: 90,
      shippingMethod: 'EXPRESS',
      orderType: 'SUBSCRIPTION',
    });
    const order = Order.parse((await sandbox.api('POST', '/v1/orders', body)).body);
    const pricing = await expectedPricing(body);
    expect(order).toMatchObject({
      daysSupply: 90,
      shippingMethod: 'EXPRESS',
      orderType: 'SUBSCRIPTION',
    });
    expect(order.lineItems.map((li) => li.totalPrice)).toEqual(
      pricing.lines.map((l) => l.totalPrice),
    );
    expect(order.totalVolumeDiscount).toBe(pricing.totalVolumeDiscount);
    expect(order.totalVolumeDiscount).not.toBe('0.00');
    expect(order.totalShipping).toBe('19.95');
    expect(order.totalPrice).toBe(pricing.totalPrice);
  });

  it('takes x-api-version 1.0.2 as the default, and refuses other versions with 400', async () => {
    const explicit = await sandbox.api('POST', '/v1/orders', validOrderBody(), {
      'x-api-version': '1.0.2',
    });
    expect(explicit.status).toBe(201);
    expect(Order.parse(explicit.body).status).toBe('NEW');

    const before = await countOrders(sandbox);
    for (const version of ['1.0.3', '1.0', 'v1', '2']) {
      const res = await sandbox.api('POST', '/v1/orders', validOrderBody(), {
        'x-api-version': version,
      });
      expect(res.status).toBe(400);
      expect(ErrorDetail.parse(res.body).detail).toMatch(/x-api-version/);
    }
    expect(await countOrders(sandbox)).toBe(before);
  });
});

describe('create order (1.0.1)', () => {
  it('takes zip, ONE-TIME and packDescription on every item, and answers 201 in the 1.0.1 shape', async () => {
    const body = v101Body();
    const res = await sandbox.api('POST', '/v1/orders', body, { 'x-api-version': '1.0.1' });
    expect(res.status).toBe(201);
    const order = OrderV101.parse(res.body);
    const pricing = await expectedPricing(validOrderBody());
    expect(order).toMatchObject({
      status: 'CREATED',
      orderType: 'ONE-TIME',
      daysSupply: 30,
      fulfillmentInfo: null,
      totalPrice: pricing.totalPrice,
      subtotalPrice: pricing.subtotalPrice,
    });
    expect(order.customer.address).toEqual(body.customer.address);
    expect(order.customer.address).not.toHaveProperty('zipCode');
    expect(order.lineItems).toEqual([
      { ...body.lineItems[0], price: '0.18', discountedPrice: '0.15' },
      { ...body.lineItems[1], price: '54.00', discountedPrice: '45.90' },
    ]);

    // Stored as any order: get shows the same 1.0.1 order.
    const got = await sandbox.api('GET', `/v1/orders/${order.id}`);
    expect(got.status).toBe(200);
    expect(OrderV101.parse(got.body)).toEqual(order);
  });
});

describe('get order', () => {
  it('answers 200 in the 1.0.1 shape: CREATED, ONE-TIME, zip and reduced line items', async () => {
    const created = await createOrder(sandbox);
    const res = await sandbox.api('GET', `/v1/orders/${created.id}`);
    expect(res.status).toBe(200);
    const order = OrderV101.parse(res.body);
    const { zipCode, ...address } = created.customer.address;
    expect(order).toEqual({
      id: created.id,
      discount: created.discount,
      daysSupply: 30,
      orderType: 'ONE-TIME',
      shippingMethod: 'STANDARD',
      status: 'CREATED',
      fulfillmentInfo: null,
      lineItems: created.lineItems.map((li) => ({
        productId: li.productId,
        quantity: li.quantity,
        packDescription: li.external ? '1 tub (30 servings)' : li.packDescription,
        price: li.price,
        discountedPrice: li.discountedPrice,
        administration: li.administration,
      })),
      customer: { ...created.customer, address: { ...address, zip: zipCode } },
      subtotalPrice: created.subtotalPrice,
      totalDiscount: created.totalDiscount,
      totalFees: created.totalFees,
      totalShipping: created.totalShipping,
      totalVolumeDiscount: created.totalVolumeDiscount,
      totalPrice: created.totalPrice,
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
    });
    const raw = res.body as { lineItems: object[]; customer: { address: object } };
    for (const li of raw.lineItems) {
      expect(Object.keys(li).sort()).toEqual([
        'administration',
        'discountedPrice',
        'packDescription',
        'price',
        'productId',
        'quantity',
      ]);
    }
    expect(raw.customer.address).not.toHaveProperty('zipCode');
  });

  it('answers 404 with detail for an unknown order id', async () => {
    for (const id of ['ord_doesnotexist0000000', 'nothing']) {
      const res = await sandbox.api('GET', `/v1/orders/${id}`);
      expect(res.status).toBe(404);
      expect(ErrorDetail.strict().parse(res.body).detail).toContain(id);
    }
  });
});

describe('cancel order', () => {
  it('cancels an order in NEW: 200 with the 1.0.2 order in CANCELLED, and get shows CANCELLED', async () => {
    const created = await createOrder(sandbox);
    const res = await sandbox.api('POST', `/v1/orders/${created.id}/cancel`);
    expect(res.status).toBe(200);
    const cancelled = Order.parse(res.body);
    expect(cancelled).toMatchObject({
      id: created.id,
      status: 'CANCELLED',
      fulfillmentInfo: null,
      totalPrice: created.totalPrice,
    });
    expect(Date.parse(cancelled.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((res.body as { lineItems: object[] }).lineItems[1]).not.toHaveProperty(
      'packDescription',
    );

    const got = OrderV101.parse((await sandbox.api('GET', `/v1/orders/${created.id}`)).body);
    expect(got.status).toBe('CANCELLED');
    expect(got.updatedAt).toBe(cancelled.updatedAt);

    const again = await sandbox.api('POST', `/v1/orders/${created.id}/cancel`);
    expect(again.status).toBe(409);
    expect(ErrorDetail.strict().parse(again.body).detail).toMatch(/cancelled/i);
  });

  it('refuses to cancel an order past NEW with 409 and leaves it as it was', async () => {
    const created = await createOrder(sandbox);
    const processing = await advanceOrder(sandbox, created.id, 'PROCESSING');
    const res = await sandbox.api('POST', `/v1/orders/${created.id}/cancel`);
    expect(res.status).toBe(409);
    expect(ErrorDetail.strict().parse(res.body).detail).toMatch(/PROCESSING/);

    const got = OrderV101.parse((await sandbox.api('GET', `/v1/orders/${created.id}`)).body);
    expect(got.status).toBe('PROCESSING');
    expect(got.updatedAt).toBe(processing.updatedAt);
  });

  it('answers 404 for an unknown order and 405 to GET', async () => {
    const unknown = await sandbox.api('POST', '/v1/orders/ord_doesnotexist0000000/cancel');
    expect(unknown.status).toBe(404);
    expect(ErrorDetail.parse(unknown.body).detail).toContain('ord_doesnotexist0000000');

    const created = await createOrder(sandbox);
    const viaGet = await sandbox.api('GET', `/v1/orders/${created.id}/cancel`);
    expect(viaGet.status).toBe(405);
    expect(viaGet.headers.get('allow')).toBe('POST');
    expect(ErrorDetail.parse(viaGet.body).detail).toMatch(/POST/);
    const got = OrderV101.parse((await sandbox.api('GET', `/v1/orders/${created.id}`)).body);
    expect(got.status).toBe('CREATED');
  });
});
