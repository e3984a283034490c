import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOSE_MAX,
  ErrorDetail,
  LINE_ITEMS_MAX,
  Order,
  POSTAL_CODE_MAX,
  QUANTITY_MAX,
  SOURCE_ID_MAX,
  ValidationErrorBody,
} from '@shared/api';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { countOrders } from '@test/support/sandbox-orders';

/**
 * Black-box tests of create order's request rules: every Limits row that applies to orders and
 * every 422 rule, each with its exact location and type, and no order written on a refusal.
 */

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

type Body = ReturnType<typeof validOrderBody>;
type Json = Record<string, any>;
type Loc = (string | number)[];

/** A valid body changed by `edit` (which works on a deep copy). */
function bodyWith(edit: (b: Json) => void): Body {
  const body = structuredClone(validOrderBody()) as Json;
  edit(body);
  return body as Body;
}

/** Posts `body`, expects a 422 with exactly the given issues, and checks that no order was written. */
async function expect422(
  body: unknown,
  issues: [Loc, string][],
  headers: Record<string, string> = {},
) {
  const before = await countOrders(sandbox);
  const res = await sandbox.api('POST', '/v1/orders', body, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  const detail = ValidationErrorBody.parse(res.body).detail;
  expect(detail.map((i) => [i.loc, i.type])).toEqual(
    issues.map(([loc, type]) => [['body', ...loc], type]),
  );
  for (const issue of detail) expect(issue.msg).toEqual(expect.any(String));
  expect(await countOrders(sandbox)).toBe(before);
}

async function expect201(body: unknown): Promise<Order> {
  const before = await countOrders(sandbox);
  const res = await sandbox.api('POST', '/v1/orders', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(await countOrders(sandbox)).toBe(before + 1);
  return Order.parse(res.body);
}

const address: Loc = ['customer', 'address'];

describe('create order limits', () => {
  it('accepts daysSupply 30, 60 and 90 and refuses anything else', async () => {
    for (const days of [30, 60, 90])
      expect((await expect201(validOrderBody({ daysSupply: days }))).daysSupply).toBe(days);
    for (const days of [0, 31, 45, 120, -30, 30.5]) {
      await expect422(validOrderBody({ daysSupply: days }), [[['daysSupply'], 'invalid']]);
    }
  });

  it('refuses a line item quantity of 0 and an empty lineItems', async () => {
    await expect422(
      bodyWith((b) => {
        b.lineItems[1].quantity = 0;
      }),
      [[['lineItems', 1, 'quantity'], 'invalid']],
    );
    await expect422(validOrderBody({ lineItems: [] }), [[['lineItems'], 'invalid']]);
  });

  it('takes address lines of 100 characters and refuses 101', async () => {
    const order = await expect201(
      bodyWith((b) => {
        b.customer.address.line1 = 'a'.repeat(100);
        b.customer.address.line2 = 'b'.repeat(100);
      }),
    );
    expect(order.customer.address.line1).toBe('a'.repeat(100));
    expect(order.customer.address.line2).toBe('b'.repeat(100));
    for (const line of ['line1', 'line2']) {
      await expect422(
        bodyWith((b) => {
          b.customer.address[line] = 'x'.repeat(101);
        }),
        [[[...address, line], 'invalid']],
      );
    }
  });

  it('takes a city of 50 characters and refuses 51', async () => {
    const order = await expect201(bodyWith((b) => (b.customer.address.city = 'c'.repeat(50))));
    expect(order.customer.address.city).toBe('c'.repeat(50));
    await expect422(
      bodyWith((b) => (b.customer.address.city = 'c'.repeat(51))),
      [[[...address, 'city'], 'invalid']],
    );
  });

  it('refuses a state that is not exactly 2 characters', async () => {
    for (const state of ['O', 'ORE']) {
      await expect422(
        bodyWith((b) => (b.customer.address.state = state)),
        [[[...address, 'state'], 'invalid']],
      );
    }
  });

  it('refuses a zipCode that is not exactly 5 digits', async () => {
    for (const zip of ['9721', '972100', 'ABCDE', '9721O', '97210-1234']) {
      await expect422(
        bodyWith((b) => (b.customer.address.zipCode = zip)),
        [[[...address, 'zipCode'], 'invalid']],
      );
    }
  });
});

describe('create order bounds: nothing the service cannot hold', () => {
  const huge = (b: Json) => {
    b.lineItems[0].quantity = 1e15;
    b.lineItems[0].administration = {
      morning: 25e13,
      afternoon: 25e13,
      evening: 25e13,
      sleep: 25e13,
    };
  };
  const hugeIssues: [Loc, string][] = [
    [['lineItems', 0, 'quantity'], 'invalid'],
    ...['morning', 'afternoon', 'evening', 'sleep'].map((t): [Loc, string] => [
      ['lineItems', 0, 'administration', t],
      'invalid',
    ]),
  ];

  it('refuses a quantity of 1e15 with doses that sum to it (it answered 500): 422 on the fields', async () => {
    await expect422(bodyWith(huge), hugeIssues);
    await expect422(
      bodyWith((b) => {
        huge(b);
        b.orderType = 'ONE-TIME';
        b.customer.address.zip = b.customer.address.zipCode;
        delete b.customer.address.zipCode;
        b.lineItems[1].packDescription = '1 scoop';
      }),
      hugeIssues,
      { 'x-api-version': '1.0.1' },
    );
  });

  it(`takes quantity ${QUANTITY_MAX} for 90 days and prices it, refuses ${QUANTITY_MAX + 1} and ${LINE_ITEMS_MAX + 1} line items`, async () => {
    const order = await expect201(
      bodyWith((b) => {
        b.daysSupply = 90;
        b.lineItems[0].quantity = QUANTITY_MAX;
        b.lineItems[0].administration = { morning: DOSE_MAX, afternoon: 0, evening: 0, sleep: 0 };
        b.lineItems[1].quantity = QUANTITY_MAX;
      }),
    );
    expect(order.lineItems.map((li) => li.quantity)).toEqual([QUANTITY_MAX, QUANTITY_MAX]);
    expect(Number(order.totalPrice)).toBeGreaterThan(0);
    await expect422(
      bodyWith((b) => (b.lineItems[1].quantity = QUANTITY_MAX + 1)),
      [[['lineItems', 1, 'quantity'], 'invalid']],
    );
    await expect422(
      bodyWith((b) => (b.lineItems = Array(LINE_ITEMS_MAX + 1).fill(b.lineItems[1]))),
      [[['lineItems'], 'invalid']],
    );
  });

  it('refuses a 100 KB sourceId and takes one of 100 characters as sent', async () => {
    await expect422(
      bodyWith((b) => (b.customer.sourceId = 'x'.repeat(100_000))),
      [[['customer', 'sourceId'], 'invalid']],
    );
    const id = `P-${'9'.repeat(SOURCE_ID_MAX - 2)}`;
    expect((await expect201(bodyWith((b) => (b.customer.sourceId = id)))).customer.sourceId).toBe(
      id,
    );
  });

  it('refuses control characters in every text field, at the field, and still trims spaces', async () => {
    const fields: Loc[] = [
      ['customer', 'sourceId'],
      ['customer', 'firstName'],
      ['customer', 'lastName'],
      ['customer', 'phone'],
      [...address, 'line1'],
      [...address, 'line2'],
      [...address, 'city'],
      ['lineItems', 0, 'packDescription'],
    ];
    const set = (b: Json, loc: Loc, value: string) => {
      const parent = loc.slice(0, -1).reduce((node, k) => node[k], b);
      parent[loc.at(-1)!] = value;
    };
    for (const loc of fields) {
      for (const c of ['\u0000', '\t', '\n', '\r\n', '\u001b', '\u007f', '\u0085']) {
        await expect422(
          bodyWith((b) => set(b, loc, `ab${c}cd`)),
          [[loc, 'invalid']],
        );
      }
    }
    await expect422(
      bodyWith((b) => (b.customer.firstName = 'Ada\n')),
      [[['customer', 'firstName'], 'invalid']],
    );
    await expect422(
      bodyWith((b) => (b.customer.address.state = '\u0000\u0000')),
      [[[...address, 'state'], 'invalid']],
    );
    const order = await expect201(bodyWith((b) => (b.customer.firstName = '  Ada  ')));
    expect(order.customer.firstName).toBe('Ada');
  });

  it('refuses a lone UTF-16 surrogate in every text field, at the field, and takes a paired one', async () => {
    const fields: Loc[] = [
      ['customer', 'sourceId'],
      ['customer', 'firstName'],
      ['customer', 'lastName'],
      ['customer', 'email'],
      ['customer', 'phone'],
      [...address, 'line1'],
      [...address, 'line2'],
      [...address, 'city'],
      [...address, 'state'],
      [...address, 'zipCode'],
      ['lineItems', 0, 'packDescription'],
    ];
    const set = (b: Json, loc: Loc, value: string) => {
      const parent = loc.slice(0, -1).reduce((node, k) => node[k], b);
      parent[loc.at(-1)!] = value;
    };
    // JSON carries a lone surrogate as an escape; JSON.stringify writes it as one.
    for (const loc of fields)
      for (const lone of ['\ud800', '\udfff', 'ab\ud83d', '\ude00cd'])
        await expect422(
          bodyWith((b) => set(b, loc, lone)),
          [[loc, 'invalid']],
        );
    const order = await expect201(bodyWith((b) => (b.customer.lastName = 'Lovelace \ud83d\ude00')));
    expect(order.customer.lastName).toBe('Lovelace \u{1f600}');
  });

  it('refuses names and address lines made only of zero-width or invisible characters', async () => {
    const invisible = ['\u200b', '\u200c\u200d', '\u2060', '\ufeff', ' \u200b\u00a0 ', '\u00ad'];
    for (const field of ['sourceId', 'firstName', 'lastName'])
      for (const value of invisible)
        await expect422(
          bodyWith((b) => (b.customer[field] = value)),
          [[['customer', field], 'invalid']],
        );
    for (const field of ['line1', 'city', 'state'])
      await expect422(
        bodyWith((b) => (b.customer.address[field] = '\u200b\u200b')),
        [[[...address, field], 'invalid']],
      );
    // A visible character with a zero-width joiner (an emoji sequence, a script that needs one) is a name.
    const order = await expect201(bodyWith((b) => (b.customer.firstName = 'A\u200dda')));
    expect(order.customer.firstName).toBe('A\u200dda');
  });

  it(`refuses a 1.0.1 zip of ${POSTAL_CODE_MAX + 1} characters or with a control character`, async () => {
    for (const zip of ['9'.repeat(POSTAL_CODE_MAX + 1), '97210\u0000']) {
      await expect422(
        bodyWith((b) => {
          b.orderType = 'ONE-TIME';
          b.customer.address.zip = zip;
          delete b.customer.address.zipCode;
          b.lineItems[1].packDescription = '1 scoop';
        }),
        [[[...address, 'zip'], 'invalid']],
        { 'x-api-version': '1.0.1' },
      );
    }
  });
});

describe('create order line item rules', () => {
  it('refuses an administration that does not add up to the quantity of a pack item', async () => {
    await expect422(
      bodyWith(
        (b) => (b.lineItems[0].administration = { morning: 1, afternoon: 0, evening: 1, sleep: 1 }),
      ),
      [[['lineItems', 0, 'administration'], 'invalid']],
    );
  });

  it('refuses an administration on an external item', async () => {
    await expect422(
      bodyWith(
        (b) => (b.lineItems[1].administration = { morning: 1, afternoon: 0, evening: 0, sleep: 0 }),
      ),
      [[['lineItems', 1, 'administration'], 'invalid']],
    );
  });

  it('requires an administration and a packDescription on a pack item', async () => {
    await expect422(
      bodyWith((b) => (b.lineItems[0].administration = null)),
      [[['lineItems', 0, 'administration'], 'missing']],
    );
    await expect422(
      bodyWith((b) => delete b.lineItems[0].administration),
      [[['lineItems', 0, 'administration'], 'missing']],
    );
    await expect422(
      bodyWith((b) => delete b.lineItems[0].packDescription),
      [[['lineItems', 0, 'packDescription'], 'missing']],
    );
  });

  it('refuses unknown, DRAFT and DISCONTINUED products at their productId', async () => {
    // 9999 does not exist; 1032 is a DRAFT pack product, 1030 a DISCONTINUED one; 1041 and 1042 are external.
    for (const productId of [9999, 1032, 1030]) {
      await expect422(
        bodyWith((b) => (b.lineItems[0].productId = productId)),
        [[['lineItems', 0, 'productId'], 'invalid']],
      );
    }
    for (const productId of [1041, 1042]) {
      await expect422(
        bodyWith((b) => (b.lineItems[1].productId = productId)),
        [[['lineItems', 1, 'productId'], 'invalid']],
      );
    }
  });

  it('accepts BACKORDERED products', async () => {
    const order = await expect201(
      bodyWith((b) => {
        b.lineItems[0].productId = 1006; // BACKORDERED pack product
        b.lineItems[1].productId = 1038; // BACKORDERED external product
      }),
    );
    expect(order.lineItems.map((li) => li.productId)).toEqual([1006, 1038]);
    expect(order.status).toBe('NEW');
  });
});

describe('create order types and required fields', () => {
  it('reports a value of the wrong JSON type as type_error', async () => {
    const cases: [(b: Json) => void, Loc][] = [
      [(b) => (b.customer = 'Ada'), ['customer']],
      [(b) => (b.customer.firstName = 5), ['customer', 'firstName']],
      [(b) => (b.customer.address = ['1 Main St']), [...address]],
      [(b) => (b.customer.address.zipCode = 97210), [...address, 'zipCode']],
      [(b) => (b.daysSupply = '30'), ['daysSupply']],
      [(b) => (b.shippingMethod = 1), ['shippingMethod']],
      [(b) => (b.orderType = true), ['orderType']],
      [(b) => (b.lineItems = { 0: b.lineItems[0] }), ['lineItems']],
      [(b) => (b.lineItems[0].productId = '1001'), ['lineItems', 0, 'productId']],
      [(b) => (b.lineItems[0].quantity = '2'), ['lineItems', 0, 'quantity']],
      [(b) => (b.lineItems[0].quantity = 1.5), ['lineItems', 0, 'quantity']],
      [
        (b) => (b.lineItems[0].administration.sleep = '1'),
        ['lineItems', 0, 'administration', 'sleep'],
      ],
    ];
    for (const [edit, loc] of cases) await expect422(bodyWith(edit), [[loc, 'type_error']]);
    await expect422([validOrderBody()], [[[], 'type_error']]);
  });

  it('reports an absent required field as missing', async () => {
    const cases: [(b: Json) => void, Loc][] = [
      [(b) => delete b.customer, ['customer']],
      [(b) => delete b.customer.sourceId, ['customer', 'sourceId']],
      [(b) => delete b.customer.lastName, ['customer', 'lastName']],
      [(b) => delete b.customer.address, [...address]],
      [(b) => delete b.customer.address.line1, [...address, 'line1']],
      [(b) => delete b.customer.address.zipCode, [...address, 'zipCode']],
      [(b) => delete b.daysSupply, ['daysSupply']],
      [(b) => delete b.lineItems, ['lineItems']],
      [(b) => delete b.shippingMethod, ['shippingMethod']],
      [(b) => delete b.orderType, ['orderType']],
      [(b) => delete b.lineItems[1].productId, ['lineItems', 1, 'productId']],
      [(b) => delete b.lineItems[1].quantity, ['lineItems', 1, 'quantity']],
      [
        (b) => delete b.lineItems[0].administration.morning,
        ['lineItems', 0, 'administration', 'morning'],
      ],
    ];
    for (const [edit, loc] of cases) await expect422(bodyWith(edit), [[loc, 'missing']]);
  });

  it('reports every problem of a body at once', async () => {
    await expect422(
      bodyWith((b) => {
        delete b.orderType;
        b.daysSupply = 45;
        b.customer.address.state = 'ORE';
      }),
      [
        [[...address, 'state'], 'invalid'],
        [['daysSupply'], 'invalid'],
        [['orderType'], 'missing'],
      ],
    );
  });
});

describe('create order 1.0.1 request rules', () => {
  const v101 = { 'x-api-version': '1.0.1' };
  const v101Body = (edit: (b: Json) => void = () => undefined) =>
    bodyWith((b) => {
      b.orderType = 'ONE-TIME';
      b.customer.address.zip = b.customer.address.zipCode;
      delete b.customer.address.zipCode;
      b.lineItems[1].packDescription = '1 scoop';
      edit(b);
    });

  it('requires zip instead of zipCode and packDescription on every item', async () => {
    await expect422(
      v101Body((b) => {
        b.customer.address.zipCode = b.customer.address.zip;
        delete b.customer.address.zip;
      }),
      [[[...address, 'zip'], 'missing']],
      v101,
    );
    await expect422(
      v101Body((b) => delete b.lineItems[1].packDescription),
      [[['lineItems', 1, 'packDescription'], 'missing']],
      v101,
    );
  });

  it('keeps the shared rules: limits, catalog and administration', async () => {
    await expect422(
      v101Body((b) => (b.customer.address.city = 'c'.repeat(51))),
      [[[...address, 'city'], 'invalid']],
      v101,
    );
    await expect422(
      v101Body((b) => (b.lineItems[0].productId = 1032)),
      [[['lineItems', 0, 'productId'], 'invalid']],
      v101,
    );
    await expect422(
      v101Body(
        (b) => (b.lineItems[1].administration = { morning: 1, afternoon: 0, evening: 0, sleep: 0 }),
      ),
      [[['lineItems', 1, 'administration'], 'invalid']],
      v101,
    );
    await expect422(
      v101Body((b) => (b.orderType = 'ONETIME')),
      [[['orderType'], 'invalid']],
      v101,
    );
  });
});

describe('create order bodies that are not JSON', () => {
  it('answers 400 with a detail message to malformed JSON', async () => {
    const before = await countOrders(sandbox);
    for (const text of ['{"customer":', '{customer: 1}', "{'a': 1}", '']) {
      const res = await sandbox.api('POST', '/v1/orders', text, {
        'content-type': 'application/json',
      });
      expect(res.status, text).toBe(400);
      expect(ErrorDetail.strict().parse(res.body).detail.length).toBeGreaterThan(0);
    }
    expect(await countOrders(sandbox)).toBe(before);
  });

  it('refuses a body that is not sent as JSON with a 4xx and a detail message', async () => {
    const before = await countOrders(sandbox);
    const text = JSON.stringify(validOrderBody());
    const xml = await sandbox.api('POST', '/v1/orders', text, {
      'content-type': 'application/xml',
    });
    expect(xml.status).toBe(415);
    expect(ErrorDetail.strict().parse(xml.body).detail).toMatch(/application\/json/);
    // text/plain is read as a string, which is not an order: a 4xx with detail, never an order.
    const plain = await sandbox.api('POST', '/v1/orders', text, { 'content-type': 'text/plain' });
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.status).toBeLessThan(500);
    expect(plain.body).toHaveProperty('detail');
    expect(await countOrders(sandbox)).toBe(before);
  });
});
