import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorDetail,
  PartnerSettings,
  Product,
  Protocol,
  ProtocolDeleted,
  ProtocolList,
  ProtocolRequest,
  ValidationErrorBody,
} from '@shared/api';
import {
  EXTERNAL_HANDLING_FEE,
  EXTERNAL_UNIT_DAYS,
  SHIPPING_PRICES,
  VOLUME_DISCOUNT_BPS,
} from '@shared/pricing';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';

let nowMs = Date.parse('2025-05-01T09:00:00.000Z');
const clock = { now: () => nowMs };
let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox({}, { clock });
});
afterAll(async () => {
  await sb.close();
});

const toCents = (m: string) => Math.round(Number(m) * 100);
const money = (cents: number) => (cents / 100).toFixed(2);

async function create(body: unknown): Promise<Protocol> {
  const res = await sb.api('POST', '/v1/protocols', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return Protocol.parse(res.body);
}

const stored = async (id: string) =>
  Protocol.parse((await sb.api('GET', `/v1/protocols/${id}`)).body);

async function product(id: number): Promise<Product> {
  return Product.parse((await sb.api('GET', `/v1/products/${id}`)).body);
}

/** The spec's pricing, computed here independently from the catalog, the partner discount and the pricing constants. */
async function expectedPricing(request: unknown) {
  const body = ProtocolRequest.parse(request);
  const discountValue =
    PartnerSettings.parse((await sb.api('GET', '/v1/partners/settings')).body).discountValue ?? 0;
  const bps = Math.round(discountValue * 10_000);
  let list = 0;
  let items = 0;
  let fees = 0;
  const lines = [];
  for (const li of body.lineItems) {
    const p = await product(li.productId);
    const unit = toCents(p.price);
    const discounted = Math.round((unit * (10_000 - bps)) / 10_000);
    const units = p.external
      ? (li.quantity * body.daysSupply) / EXTERNAL_UNIT_DAYS
      : li.quantity * body.daysSupply;
    list += unit * units;
    items += discounted * units;
    if (p.external) fees += EXTERNAL_HANDLING_FEE * units;
    lines.push({
      price: money(unit),
      discountedPrice: money(discounted),
      totalPrice: money(discounted * units),
    });
  }
  const volume = Math.round((items * VOLUME_DISCOUNT_BPS[body.daysSupply]) / 10_000);
  const subtotal = items - volume + fees;
  const shipping = SHIPPING_PRICES[body.shippingMethod];
  return {
    discount: `${discountValue * 100}%`,
    lines,
    totals: {
      subtotalPrice: money(subtotal),
      totalDiscount: money(list - items + volume),
      totalFees: money(fees),
      totalVolumeDiscount: money(volume),
      totalShipping: money(shipping),
      totalPrice: money(subtotal + shipping),
    },
  };
}

const TOTALS = [
  'subtotalPrice',
  'totalDiscount',
  'totalFees',
  'totalVolumeDiscount',
  'totalShipping',
  'totalPrice',
] as const;
const totalsOf = (p: Protocol) => Object.fromEntries(TOTALS.map((k) => [k, p[k]]));

describe('create protocol', () => {
  it('answers 201 with the stored protocol: request fields, catalog line items, createdAt == updatedAt', async () => {
    const body = validOrderBody();
    const p = await create(body);
    expect(p.id).toMatch(/^prt_/);
    expect(p.customer).toEqual(body.customer);
    expect(p).toMatchObject({ daysSupply: 30, shippingMethod: 'STANDARD', orderType: 'ONE_TIME' });
    expect(p.createdAt).toBe(new Date(nowMs).toISOString());
    expect(p.updatedAt).toBe(p.createdAt);
    const [pack, ext] = await Promise.all([product(1001), product(1035)]);
    expect(p.lineItems).toHaveLength(2);
    expect(p.lineItems[0]).toMatchObject({
      productId: 1001,
      name: pack.name,
      quantity: 2,
      packDescription: '1 capsule',
      external: false,
      imageUrl: pack.productImage,
      administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
    });
    expect(p.lineItems[1]).toMatchObject({
      productId: 1035,
      name: ext.name,
      quantity: 1,
      external: true,
      imageUrl: ext.productImage,
      administration: null,
    });
  });

  it('prices a 30-day STANDARD protocol with the partner discount, handling fee and shipping price', async () => {
    const body = validOrderBody();
    const p = await create(body);
    const expected = await expectedPricing(body);
    expect(p.discount).toBe(expected.discount);
    expect(p.discount).toBe('15%');
    expect(totalsOf(p)).toEqual(expected.totals);
    expect(
      p.lineItems.map(({ price, discountedPrice, totalPrice }) => ({
        price,
        discountedPrice,
        totalPrice,
      })),
    ).toEqual(expected.lines);
    expect(p.totalFees).toBe(money(EXTERNAL_HANDLING_FEE));
    expect(p.totalShipping).toBe(money(SHIPPING_PRICES.STANDARD));
    expect(p.totalVolumeDiscount).toBe('0.00');
  });

  it('prices a 90-day EXPRESS protocol with the volume discount and per-30-day external units', async () => {
    const body = validOrderBody({
      daysSupply: 90,
      shippingMethod: 'EXPRESS',
      lineItems: [
        {
          productId: 1002,
          quantity: 3,
          administration: { morning: 1, afternoon: 1, evening: 1, sleep: 0 },
        },
        { productId: 1036, quantity: 2, administration: null },
      ],
    });
    const p = await create(body);
    const expected = await expectedPricing(body);
    expect(totalsOf(p)).toEqual(expected.totals);
    expect(p.totalVolumeDiscount).not.toBe('0.00');
    expect(p.totalFees).toBe(money(EXTERNAL_HANDLING_FEE * ((2 * 90) / EXTERNAL_UNIT_DAYS)));
    expect(p.totalShipping).toBe(money(SHIPPING_PRICES.EXPRESS));
  });

  it("defaults a pack item's packDescription to the catalog's and leaves an external item's absent", async () => {
    const body = validOrderBody({
      lineItems: [
        {
          productId: 1003,
          quantity: 2,
          administration: { morning: 2, afternoon: 0, evening: 0, sleep: 0 },
        },
        { productId: 1035, quantity: 1, administration: null },
      ],
    });
    const p = await create(body);
    expect(p.lineItems[0]!.packDescription).toBe((await product(1003)).packDescription);
    expect(p.lineItems[1]).not.toHaveProperty('packDescription');
    expect((await stored(p.id)).lineItems[1]).not.toHaveProperty('packDescription');
  });

  it('keeps a packDescription that the request gives, for pack and external items', async () => {
    const body = validOrderBody({
      lineItems: [
        {
          productId: 1003,
          quantity: 1,
          packDescription: 'one softgel',
          administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
        },
        { productId: 1035, quantity: 1, packDescription: 'one tub', administration: null },
      ],
    });
    const p = await create(body);
    expect(p.lineItems.map((li) => li.packDescription)).toEqual(['one softgel', 'one tub']);
  });

  it('returns email, phone and line2 as null when the request leaves them out', async () => {
    const body = validOrderBody();
    const { email: _e, phone: _p, address, ...customer } = body.customer;
    const { line2: _l, ...addressWithoutLine2 } = address;
    const p = await create({ ...body, customer: { ...customer, address: addressWithoutLine2 } });
    expect(p.customer).toMatchObject({
      email: null,
      phone: null,
      address: { line2: null, zipCode: '97210' },
    });
  });
});

describe('get protocol', () => {
  it('answers 200 with the protocol as created', async () => {
    const created = await create(validOrderBody());
    const res = await sb.api('GET', `/v1/protocols/${created.id}`);
    expect(res.status).toBe(200);
    expect(Protocol.parse(res.body)).toEqual(created);
  });

  it('answers 404 {detail} for an unknown id', async () => {
    const res = await sb.api('GET', '/v1/protocols/prt_does_not_exist');
    expect(res.status).toBe(404);
    expect(ErrorDetail.strict().parse(res.body).detail).not.toBe('');
  });
});

describe('replace protocol (PUT)', () => {
  const replacement = () =>
    validOrderBody({
      customer: {
        sourceId: 'patient-0002',
        firstName: 'Grace',
        lastName: 'Hopper',
        address: { line1: '9 Harbor Rd', city: 'Arlington', state: 'VA', zipCode: '22201' },
      },
      daysSupply: 60,
      shippingMethod: 'OVERNIGHT',
      orderType: 'SUBSCRIPTION',
      lineItems: [
        {
          productId: 1004,
          quantity: 1,
          administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
        },
      ],
    });

  it('replaces every field, keeps id and createdAt, moves updatedAt forward, and stores the result', async () => {
    const created = await create(validOrderBody());
    nowMs += 5_000;
    const body = replacement();
    const res = await sb.api('PUT', `/v1/protocols/${created.id}`, body);
    expect(res.status).toBe(200);
    const p = Protocol.parse(res.body);
    expect(p.id).toBe(created.id);
    expect(p.createdAt).toBe(created.createdAt);
    expect(p.updatedAt).toBe(new Date(nowMs).toISOString());
    expect(p).toMatchObject({
      daysSupply: 60,
      shippingMethod: 'OVERNIGHT',
      orderType: 'SUBSCRIPTION',
    });
    expect(p.customer).toEqual({
      ...body.customer,
      email: null,
      phone: null,
      address: { ...body.customer.address, line2: null },
    });
    expect(p.lineItems.map((li) => li.productId)).toEqual([1004]);
    expect(p.lineItems[0]!.packDescription).toBe((await product(1004)).packDescription);
    expect(totalsOf(p)).toEqual((await expectedPricing(body)).totals);
    expect(await stored(created.id)).toEqual(p);
  });

  it('moves updatedAt forward even when the clock has not moved', async () => {
    const created = await create(validOrderBody());
    const put = async () =>
      Protocol.parse((await sb.api('PUT', `/v1/protocols/${created.id}`, replacement())).body);
    const first = await put();
    const second = await put();
    expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
  });

  it('answers 422 with loc and type for a body missing a required field, and leaves the protocol unchanged', async () => {
    const created = await create(validOrderBody());
    const { shippingMethod: _dropped, ...body } = replacement();
    nowMs += 1_000;
    const res = await sb.api('PUT', `/v1/protocols/${created.id}`, body);
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', 'shippingMethod'], type: 'missing', msg: expect.any(String) },
    ]);
    expect(await stored(created.id)).toEqual(created);
  });

  it('answers 422 for a missing nested field (customer.address.zipCode)', async () => {
    const created = await create(validOrderBody());
    const body = replacement();
    const { zipCode: _dropped, ...address } = body.customer.address as Record<string, unknown>;
    const res = await sb.api('PUT', `/v1/protocols/${created.id}`, {
      ...body,
      customer: { ...body.customer, address },
    });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', 'customer', 'address', 'zipCode'], type: 'missing', msg: expect.any(String) },
    ]);
    expect(await stored(created.id)).toEqual(created);
  });

  it('answers 404 {detail} for an unknown id with a valid body, and creates nothing', async () => {
    const res = await sb.api('PUT', '/v1/protocols/prt_unknown', replacement());
    expect(res.status).toBe(404);
    expect(ErrorDetail.parse(res.body).detail).not.toBe('');
    expect((await sb.api('GET', '/v1/protocols/prt_unknown')).status).toBe(404);
    const all = ProtocolList.parse((await sb.api('GET', '/v1/protocols?limit=100')).body);
    expect(all.protocols.map((p) => p.id)).not.toContain('prt_unknown');
  });

  it('validates the body before looking the id up: an unknown id with a bad body is 422', async () => {
    const res = await sb.api('PUT', '/v1/protocols/prt_unknown', {
      ...replacement(),
      daysSupply: 45,
    });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', 'daysSupply'], type: 'invalid', msg: expect.any(String) },
    ]);
  });
});

describe('delete protocol', () => {
  it('answers 200 {protocolId, message}; then get and a second delete are 404 and the list no longer has it', async () => {
    const created = await create(validOrderBody());
    const res = await sb.api('DELETE', `/v1/protocols/${created.id}`);
    expect(res.status).toBe(200);
    const deleted = ProtocolDeleted.strict().parse(res.body);
    expect(deleted.protocolId).toBe(created.id);
    expect(deleted.message).not.toBe('');
    const get = await sb.api('GET', `/v1/protocols/${created.id}`);
    expect(get.status).toBe(404);
    expect(ErrorDetail.parse(get.body).detail).not.toBe('');
    const again = await sb.api('DELETE', `/v1/protocols/${created.id}`);
    expect(again.status).toBe(404);
    expect(ErrorDetail.parse(again.body).detail).not.toBe('');
    const all = ProtocolList.parse((await sb.api('GET', '/v1/protocols?limit=100')).body);
    expect(all.protocols.map((p) => p.id)).not.toContain(created.id);
  });
});
