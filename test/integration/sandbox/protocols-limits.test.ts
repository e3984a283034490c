import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOSE_MAX,
  EMAIL_MAX,
  LINE_ITEMS_MAX,
  NAME_MAX,
  PACK_DESCRIPTION_MAX,
  PHONE_MAX,
  Protocol,
  ProtocolList,
  QUANTITY_MAX,
  SOURCE_ID_MAX,
  ValidationErrorBody,
} from '@shared/api';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';

/**
 * Every row of the spec's Limits table that applies to protocol requests, and every bound the
 * service adds so that it never takes what it cannot hold, on create and on replace: the exact
 * 422 location and type, and nothing written.
 */

type Json = Record<string, unknown>;
type Loc = (string | number)[];

let sb: TestSandbox;
let existing: Protocol;

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.api('POST', '/v1/protocols', validOrderBody());
  expect(res.status).toBe(201);
  existing = Protocol.parse(res.body);
});
afterAll(async () => {
  await sb.close();
});

/** A valid body with one value changed (undefined removes the key) at a path such as customer.address.city. */
function bodyWith(path: Loc, value: unknown): Json {
  const body = structuredClone(validOrderBody()) as Json;
  let target = body as Json | unknown[];
  for (const key of path.slice(0, -1)) target = (target as Json)[key as string] as Json;
  const last = path[path.length - 1]!;
  if (value === undefined) delete (target as Json)[last as string];
  else (target as Json)[last as string] = value;
  return body;
}

async function protocolCount(): Promise<number> {
  const list = ProtocolList.parse((await sb.api('GET', '/v1/protocols?limit=100')).body);
  expect(list.cursor).toBeNull();
  return list.protocols.length;
}

const pack = (quantity: number, administration: unknown) => ({
  productId: 1001,
  quantity,
  administration,
});
const external = (administration: unknown) => ({ productId: 1035, quantity: 1, administration });
const doses = (morning: number, afternoon = 0) => ({ morning, afternoon, evening: 0, sleep: 0 });

const customer = (field: string, value: unknown) => bodyWith(['customer', field], value);
const addressField = (field: string, value: unknown) =>
  bodyWith(['customer', 'address', field], value);

/** Bounds beyond the Limits table: what the service can hold (src/shared/api). */
const BOUNDS: [string, Json, Loc, 'invalid'][] = [
  [
    `quantity ${QUANTITY_MAX + 1} with doses that sum to it`,
    bodyWith(['lineItems'], [pack(QUANTITY_MAX + 1, doses(QUANTITY_MAX, 1))]),
    ['lineItems', 0, 'quantity'],
    'invalid',
  ],
  [
    `a dose of ${DOSE_MAX + 1}`,
    bodyWith(['lineItems'], [pack(2, doses(DOSE_MAX + 1))]),
    ['lineItems', 0, 'administration', 'morning'],
    'invalid',
  ],
  [
    `${LINE_ITEMS_MAX + 1} line items`,
    bodyWith(['lineItems'], Array(LINE_ITEMS_MAX + 1).fill(external(null))),
    ['lineItems'],
    'invalid',
  ],
  [
    `packDescription of ${PACK_DESCRIPTION_MAX + 1} characters`,
    bodyWith(['lineItems', 0, 'packDescription'], 'p'.repeat(PACK_DESCRIPTION_MAX + 1)),
    ['lineItems', 0, 'packDescription'],
    'invalid',
  ],
  [
    'packDescription with a line break',
    bodyWith(['lineItems', 0, 'packDescription'], '1 capsule\r\n'),
    ['lineItems', 0, 'packDescription'],
    'invalid',
  ],
  [
    `sourceId of ${SOURCE_ID_MAX + 1} characters`,
    customer('sourceId', 's'.repeat(SOURCE_ID_MAX + 1)),
    ['customer', 'sourceId'],
    'invalid',
  ],
  [
    'sourceId with a NUL',
    customer('sourceId', 'patient-\u00000001'),
    ['customer', 'sourceId'],
    'invalid',
  ],
  [
    'sourceId with a lone surrogate',
    customer('sourceId', 'patient-\ud800'),
    ['customer', 'sourceId'],
    'invalid',
  ],
  [
    'lastName of zero-width characters only',
    customer('lastName', '\u200b\u200c\u200d\u2060\ufeff'),
    ['customer', 'lastName'],
    'invalid',
  ],
  [
    'firstName of a zero-width space between spaces',
    customer('firstName', ' \u200b '),
    ['customer', 'firstName'],
    'invalid',
  ],
  [
    'packDescription with a lone low surrogate',
    bodyWith(['lineItems', 0, 'packDescription'], '\udc00 capsule'),
    ['lineItems', 0, 'packDescription'],
    'invalid',
  ],
  [
    'firstName with a newline',
    customer('firstName', 'Ada\n'),
    ['customer', 'firstName'],
    'invalid',
  ],
  [
    `lastName of ${NAME_MAX + 1} characters`,
    customer('lastName', 'L'.repeat(NAME_MAX + 1)),
    ['customer', 'lastName'],
    'invalid',
  ],
  [
    `email of ${EMAIL_MAX + 1} characters`,
    customer('email', `${'a'.repeat(EMAIL_MAX + 1 - '@example.com'.length)}@example.com`),
    ['customer', 'email'],
    'invalid',
  ],
  [
    `phone of ${PHONE_MAX + 1} characters`,
    customer('phone', '5'.repeat(PHONE_MAX + 1)),
    ['customer', 'phone'],
    'invalid',
  ],
  ['phone with a tab', customer('phone', '503\t555 0100'), ['customer', 'phone'], 'invalid'],
  [
    'line1 with a NUL',
    addressField('line1', '1 Main St\u0000'),
    ['customer', 'address', 'line1'],
    'invalid',
  ],
  [
    'line2 with a C1 control (NEL)',
    addressField('line2', 'Suite\u00852'),
    ['customer', 'address', 'line2'],
    'invalid',
  ],
  [
    'city with DEL',
    addressField('city', 'Port\u007fland'),
    ['customer', 'address', 'city'],
    'invalid',
  ],
  [
    'state with a NUL',
    addressField('state', 'O\u0000'),
    ['customer', 'address', 'state'],
    'invalid',
  ],
];

const REJECTED: [string, Json, Loc, 'missing' | 'invalid' | 'type_error'][] = [
  ...BOUNDS,
  ['daysSupply 45', bodyWith(['daysSupply'], 45), ['daysSupply'], 'invalid'],
  ['daysSupply 0', bodyWith(['daysSupply'], 0), ['daysSupply'], 'invalid'],
  ['daysSupply 120', bodyWith(['daysSupply'], 120), ['daysSupply'], 'invalid'],
  ['daysSupply absent', bodyWith(['daysSupply'], undefined), ['daysSupply'], 'missing'],
  [
    'quantity 0',
    bodyWith(['lineItems', 0, 'quantity'], 0),
    ['lineItems', 0, 'quantity'],
    'invalid',
  ],
  [
    'quantity -1',
    bodyWith(['lineItems', 1, 'quantity'], -1),
    ['lineItems', 1, 'quantity'],
    'invalid',
  ],
  [
    'quantity absent',
    bodyWith(['lineItems', 0, 'quantity'], undefined),
    ['lineItems', 0, 'quantity'],
    'missing',
  ],
  [
    'quantity "2"',
    bodyWith(['lineItems', 0, 'quantity'], '2'),
    ['lineItems', 0, 'quantity'],
    'type_error',
  ],
  ['lineItems empty', bodyWith(['lineItems'], []), ['lineItems'], 'invalid'],
  ['lineItems absent', bodyWith(['lineItems'], undefined), ['lineItems'], 'missing'],
  [
    'line1 of 101 characters',
    bodyWith(['customer', 'address', 'line1'], 'x'.repeat(101)),
    ['customer', 'address', 'line1'],
    'invalid',
  ],
  [
    'line1 empty',
    bodyWith(['customer', 'address', 'line1'], ''),
    ['customer', 'address', 'line1'],
    'invalid',
  ],
  [
    'line1 absent',
    bodyWith(['customer', 'address', 'line1'], undefined),
    ['customer', 'address', 'line1'],
    'missing',
  ],
  [
    'line2 of 101 characters',
    bodyWith(['customer', 'address', 'line2'], 'y'.repeat(101)),
    ['customer', 'address', 'line2'],
    'invalid',
  ],
  [
    'city of 51 characters',
    bodyWith(['customer', 'address', 'city'], 'c'.repeat(51)),
    ['customer', 'address', 'city'],
    'invalid',
  ],
  [
    'city absent',
    bodyWith(['customer', 'address', 'city'], undefined),
    ['customer', 'address', 'city'],
    'missing',
  ],
  [
    'state of 1 character',
    bodyWith(['customer', 'address', 'state'], 'O'),
    ['customer', 'address', 'state'],
    'invalid',
  ],
  [
    'state of 3 characters',
    bodyWith(['customer', 'address', 'state'], 'ORE'),
    ['customer', 'address', 'state'],
    'invalid',
  ],
  [
    'state absent',
    bodyWith(['customer', 'address', 'state'], undefined),
    ['customer', 'address', 'state'],
    'missing',
  ],
  [
    'zipCode of 4 digits',
    bodyWith(['customer', 'address', 'zipCode'], '9721'),
    ['customer', 'address', 'zipCode'],
    'invalid',
  ],
  [
    'zipCode of 6 digits',
    bodyWith(['customer', 'address', 'zipCode'], '972100'),
    ['customer', 'address', 'zipCode'],
    'invalid',
  ],
  [
    'zipCode with a letter',
    bodyWith(['customer', 'address', 'zipCode'], '9721a'),
    ['customer', 'address', 'zipCode'],
    'invalid',
  ],
  [
    'zipCode ZIP+4',
    bodyWith(['customer', 'address', 'zipCode'], '97210-1234'),
    ['customer', 'address', 'zipCode'],
    'invalid',
  ],
  [
    'zipCode as a number',
    bodyWith(['customer', 'address', 'zipCode'], 97210),
    ['customer', 'address', 'zipCode'],
    'type_error',
  ],
  [
    'zipCode absent',
    bodyWith(['customer', 'address', 'zipCode'], undefined),
    ['customer', 'address', 'zipCode'],
    'missing',
  ],
  [
    'pack administration summing below quantity',
    bodyWith(
      ['lineItems'],
      [pack(2, { morning: 0, afternoon: 0, evening: 1, sleep: 0 }), external(null)],
    ),
    ['lineItems', 0, 'administration'],
    'invalid',
  ],
  [
    'pack administration summing above quantity',
    bodyWith(
      ['lineItems'],
      [pack(2, { morning: 1, afternoon: 1, evening: 1, sleep: 0 }), external(null)],
    ),
    ['lineItems', 0, 'administration'],
    'invalid',
  ],
  [
    'pack administration null',
    bodyWith(['lineItems'], [pack(1, null)]),
    ['lineItems', 0, 'administration'],
    'missing',
  ],
  [
    'external administration not null',
    bodyWith(
      ['lineItems'],
      [
        pack(1, { morning: 1, afternoon: 0, evening: 0, sleep: 0 }),
        external({ morning: 1, afternoon: 0, evening: 0, sleep: 0 }),
      ],
    ),
    ['lineItems', 1, 'administration'],
    'invalid',
  ],
];

describe('Limits table, create protocol', () => {
  it.each(REJECTED)(
    '%s: 422 at the exact loc and type, nothing created',
    async (_name, body, loc, type) => {
      const before = await protocolCount();
      const res = await sb.api('POST', '/v1/protocols', body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(ValidationErrorBody.parse(res.body).detail).toEqual([
        { loc: ['body', ...loc], type, msg: expect.any(String) },
      ]);
      expect(await protocolCount()).toBe(before);
    },
  );

  it('accepts the values at the limits: 100-character lines, a 50-character city, quantity 1, every daysSupply', async () => {
    const before = await protocolCount();
    for (const daysSupply of [30, 60, 90]) {
      const body = bodyWith(['daysSupply'], daysSupply);
      const customer = body.customer as Json;
      customer.address = {
        line1: 'a'.repeat(100),
        line2: 'b'.repeat(100),
        city: 'c'.repeat(50),
        state: 'OR',
        zipCode: '00501',
      };
      body.lineItems = [
        pack(1, { morning: 0, afternoon: 0, evening: 0, sleep: 1 }),
        external(null),
      ];
      const res = await sb.api('POST', '/v1/protocols', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const p = Protocol.parse(res.body);
      expect(p.daysSupply).toBe(daysSupply);
      expect(p.customer.address).toEqual(customer.address);
      expect(p.lineItems[0]!.quantity).toBe(1);
    }
    expect(await protocolCount()).toBe(before + 3);
  });

  it('accepts an external item with administration left out (null)', async () => {
    const res = await sb.api(
      'POST',
      '/v1/protocols',
      bodyWith(['lineItems'], [{ productId: 1035, quantity: 1 }]),
    );
    expect(res.status).toBe(201);
    expect(Protocol.parse(res.body).lineItems[0]!.administration).toBeNull();
  });
});

describe('Limits table, replace protocol', () => {
  it.each(REJECTED)(
    '%s: 422 at the exact loc and type, stored protocol unchanged',
    async (_name, body, loc, type) => {
      const before = await protocolCount();
      const res = await sb.api('PUT', `/v1/protocols/${existing.id}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(ValidationErrorBody.parse(res.body).detail).toEqual([
        { loc: ['body', ...loc], type, msg: expect.any(String) },
      ]);
      expect(Protocol.parse((await sb.api('GET', `/v1/protocols/${existing.id}`)).body)).toEqual(
        existing,
      );
      expect(await protocolCount()).toBe(before);
    },
  );
});

describe('bounds on create and replace protocol', () => {
  /** The request found from outside that answered 500: quantity 1e15, doses that add up to it. */
  const huge = bodyWith(['lineItems'], [pack(1e15, doses(5e14, 5e14))]);
  const hugeIssues = [
    { loc: ['body', 'lineItems', 0, 'quantity'], type: 'invalid', msg: `at most ${QUANTITY_MAX}` },
    {
      loc: ['body', 'lineItems', 0, 'administration', 'morning'],
      type: 'invalid',
      msg: expect.any(String),
    },
    {
      loc: ['body', 'lineItems', 0, 'administration', 'afternoon'],
      type: 'invalid',
      msg: expect.any(String),
    },
  ];

  it('refuses a quantity of 1e15 with doses that sum to it on create and on replace: 422, not 500', async () => {
    const before = await protocolCount();
    const created = await sb.api('POST', '/v1/protocols', huge);
    expect(created.status, JSON.stringify(created.body)).toBe(422);
    expect(ValidationErrorBody.parse(created.body).detail).toEqual(hugeIssues);
    const replaced = await sb.api('PUT', `/v1/protocols/${existing.id}`, huge);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(422);
    expect(ValidationErrorBody.parse(replaced.body).detail).toEqual(hugeIssues);
    expect(Protocol.parse((await sb.api('GET', `/v1/protocols/${existing.id}`)).body)).toEqual(
      existing,
    );
    expect(await protocolCount()).toBe(before);
  });

  it('takes every value at its bound, on create and on replace, and stores it as sent', async () => {
    const body = bodyWith(
      ['lineItems'],
      [
        {
          ...pack(QUANTITY_MAX, doses(DOSE_MAX)),
          packDescription: 'p'.repeat(PACK_DESCRIPTION_MAX),
        },
        { ...external(null), quantity: QUANTITY_MAX },
      ],
    );
    body.daysSupply = 90;
    Object.assign(body.customer as Json, {
      sourceId: 's'.repeat(SOURCE_ID_MAX),
      firstName: 'F'.repeat(NAME_MAX),
      lastName: 'L'.repeat(NAME_MAX),
      email: `${'a'.repeat(EMAIL_MAX - '@example.com'.length)}@example.com`,
      phone: '5'.repeat(PHONE_MAX),
    });
    const created = await sb.api('POST', '/v1/protocols', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const protocol = Protocol.parse(created.body);
    expect(protocol.customer).toMatchObject(body.customer as Json);
    expect(protocol.lineItems.map((li) => li.quantity)).toEqual([QUANTITY_MAX, QUANTITY_MAX]);
    const replaced = await sb.api('PUT', `/v1/protocols/${protocol.id}`, body);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(Protocol.parse(replaced.body).totalPrice).toBe(protocol.totalPrice);
  });

  it('takes 50 line items as far as the schema goes: their products are then checked', async () => {
    const items = Array.from({ length: LINE_ITEMS_MAX }, (_, i) => ({
      productId: 900_000 + i,
      quantity: 1,
      administration: null,
    }));
    const res = await sb.api('POST', '/v1/protocols', bodyWith(['lineItems'], items));
    expect(res.status).toBe(422);
    const locs = ValidationErrorBody.parse(res.body).detail.map((i) => i.loc);
    expect(locs).toEqual(items.map((_, i) => ['body', 'lineItems', i, 'productId']));
  });
});
