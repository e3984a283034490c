import fc from 'fast-check';
import { validOrderBody } from './sandbox';

/** Request bodies for the property-based tests: arbitrary JSON, raw text, and near-valid bodies. */

type OrderBodyShape = Record<string, unknown> & {
  customer: Record<string, unknown> & { address: Record<string, unknown> };
  lineItems: Record<string, unknown>[];
};

/** A 1.0.2 body in its 1.0.1 form: `zip`, ONE-TIME, packDescription on every item. */
export function asV101(base: OrderBodyShape) {
  const { zipCode, ...address } = base.customer.address;
  return {
    ...base,
    orderType: 'ONE-TIME',
    customer: { ...base.customer, address: { ...address, zip: zipCode } },
    lineItems: base.lineItems.map((li) => ({ packDescription: '1 scoop', ...li })),
  };
}

/** The 1.0.1 create-order body. */
export const validV101Body = () => asV101(validOrderBody());

type Path = (string | number)[];
function nodePaths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...nodePaths(v, [...prefix, k])]);
}

type Mutation = { pick: number; value: { set: unknown } | null };
/** Deletes or replaces a few nodes of a valid body; paths that a former mutation removed are skipped. */
export function mutate(base: unknown, mutations: Mutation[]): unknown {
  const body = structuredClone(base) as Record<string | number, unknown>;
  for (const { pick, value } of mutations) {
    const paths = nodePaths(body);
    if (paths.length === 0) break;
    const path = paths[pick % paths.length]!;
    const parent = path.slice(0, -1).reduce<any>((node, k) => node[k], body);
    const key = path.at(-1)!;
    if (value) parent[key] = value.set;
    else if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  }
  return body;
}

export const nearValid = (base: unknown) =>
  fc
    .array(
      fc.record({
        pick: fc.nat(),
        value: fc.option(fc.record({ set: fc.jsonValue() }), { freq: 3 }),
      }),
      {
        minLength: 1,
        maxLength: 3,
      },
    )
    .map((mutations) => JSON.stringify(mutate(base, mutations)));

export const rawText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    '[1,',
    'nul',
    'undefined',
    "{'a':1}",
    '{"__proto__":{"x":1}}',
    '{"a":1}{"b":2}',
  ),
);
export const jsonText = fc.jsonValue().map((v) => JSON.stringify(v));
export const anyBody = (base?: unknown) =>
  base === undefined ? fc.oneof(jsonText, rawText) : fc.oneof(jsonText, rawText, nearValid(base));

/**
 * Runs per property (FUZZ_RUNS) and a replay of a failure (FC_SEED and FC_PATH, as fast-check
 * prints them), shared by the property-based test files.
 */
export const fuzzRuns = (fallback: number) => Number(process.env.FUZZ_RUNS ?? fallback);
export const replay = process.env.FC_SEED
  ? {
      seed: Number(process.env.FC_SEED),
      ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
    }
  : {};

/** Values at and past the service's bounds, for the fields of otherwise well-formed bodies. */

/** C0 controls, DEL and C1 controls. */
export const controlChar = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
  .map((code) => String.fromCharCode(code));

/** A string with one to three control characters put in at random places. */
export const withControls = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(text, fc.array(fc.tuple(fc.nat(), controlChar), { minLength: 1, maxLength: 3 }))
    .map(([s, inserts]) =>
      inserts.reduce((acc, [at, c]) => {
        const i = at % (acc.length + 1);
        return acc.slice(0, i) + c + acc.slice(i);
      }, s),
    );

/** Lengths around the bounds (40, 50, 56, 100, 254, 2048) and far past them. */
const LENGTHS = [
  0, 1, 2, 5, 20, 21, 40, 41, 50, 51, 56, 57, 100, 101, 254, 255, 2048, 2049, 100_000,
];

/** Text that shows nothing: whitespace and zero-width or other default-ignorable characters. */
export const invisibleString = fc
  .array(
    fc.constantFrom(' ', '\u00a0', '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((chars) => chars.join(''));

/** Whether `s` is well-formed UTF-16 (every surrogate paired). */
export const isWellFormed = (s: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** Text with a lone UTF-16 surrogate (half of a pair) somewhere in it. */
export const loneSurrogateString = fc
  .tuple(
    fc.string({ maxLength: 10 }),
    fc.oneof(fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff })),
    fc.string({ maxLength: 10 }),
  )
  .map(([before, half, after]) => `${before}${String.fromCharCode(half)}${after}`)
  .filter((s) => !isWellFormed(s));

export const edgeString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  invisibleString,
  loneSurrogateString,
  withControls(fc.string({ maxLength: 20 })),
  fc.constantFrom(...LENGTHS).map((n) => 'x'.repeat(n)),
  fc.constantFrom(' ', '  Ada  ', '\ud800', '-502.05', '0.00', '10000.00', '10000.01', '1e5'),
  fc.constantFrom('99999999999999999.99', 'https://a.example/\r\nx', 'OR', '97210'),
);

export const edgeNumber = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 999, 1000, 1001, 2 ** 31, 2 ** 53, 1e15, 1e21, 1e308, 0.5, 5e-324),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const edgeValue = fc.oneof(
  edgeNumber,
  edgeString,
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);

/**
 * Clean URLs to hosts that are not public, in the spellings a URL parser takes: the service must
 * never call or publish one (loopback, metadata, private, link-local, unspecified, broadcast).
 */
export const NOT_PUBLIC_URLS = [
  'http://127.0.0.1:9/hook',
  'http://2130706433/hook',
  'http://0177.0.0.1/hook',
  'http://0x7f.1/hook',
  'http://127.1/hook',
  'http://localhost/hook',
  'http://hooks.localhost/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://10.0.0.1/hook',
  'http://0xc0a80001/hook',
  'http://100.64.0.1/hook',
  'http://0.0.0.0/hook',
  'http://255.255.255.255/hook',
];

/** Clean URLs, and URLs made unclean: controls, whitespace, credentials, fragments, backslashes. */
export const edgeUrl = fc.oneof(
  fc.webUrl({ withQueryParameters: true }),
  fc.webUrl({ withFragments: true }),
  withControls(fc.webUrl()),
  fc.webUrl().map((u) => u.replace('://', '://user:secret@')),
  fc
    .tuple(fc.webUrl(), fc.constantFrom(' ', '\t', '\r\n', '\\', '#', '\u00a0', 'ä'))
    .map(([u, c]) => u + c),
  fc.constantFrom('https://hooks.clinic.example/a', 'HTTP://X.EXAMPLE/', 'javascript:alert(1)'),
  fc.constantFrom(...NOT_PUBLIC_URLS),
);

/** The valid value most of the time, so that most bodies get past the schema to the pricing. */
export const mostly = <T>(valid: T, edge: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(valid) }, { weight: 1, arbitrary: edge });

/** Mostly doses a pack can hold, now and then one far past any bound. */
const dose = fc.oneof(
  { weight: 8, arbitrary: fc.nat({ max: 250 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 250, 1000, 1001, 25e13, 2 ** 51) },
  { weight: 1, arbitrary: fc.maxSafeNat() },
);

export interface OrderableIds {
  pack: number[];
  external: number[];
}

/** A line item of the right form for its product, with quantities anywhere up to 2^53 and beyond. */
export function edgeLineItem(ids: OrderableIds) {
  const pack = fc
    .record({
      productId: fc.constantFrom(...ids.pack),
      doses: fc.tuple(dose, dose, dose, dose),
      packDescription: mostly('1 capsule', edgeString),
    })
    .map(({ productId, doses: [morning, afternoon, evening, sleep], packDescription }) => ({
      productId,
      quantity: morning + afternoon + evening + sleep,
      packDescription,
      administration: { morning, afternoon, evening, sleep },
    }));
  const external = fc.record({
    productId: fc.constantFrom(...ids.external),
    quantity: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }) },
      { weight: 1, arbitrary: edgeNumber },
    ),
    administration: fc.constant(null),
  });
  return fc.oneof(pack, external);
}

/** 1 to 4 line items of distinct products, or 49 to 52 of them (some repeated) now and then. */
export function edgeLineItems(ids: OrderableIds) {
  const item = edgeLineItem(ids);
  return fc.oneof(
    {
      weight: 9,
      arbitrary: fc.uniqueArray(item, {
        minLength: 1,
        maxLength: 4,
        selector: (li) => li.productId,
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 49, max: 52 })
        .chain((n) => fc.array(item, { minLength: n, maxLength: n })),
    },
  );
}

/** A create-order / protocol body: valid in form, with edge quantities and now and then edge text. */
export function edgeOrderBody(ids: OrderableIds) {
  const valid = validOrderBody();
  const c = valid.customer;
  const a = c.address;
  const edgeCustomer = fc.record({
    sourceId: mostly(c.sourceId, edgeString),
    firstName: mostly(c.firstName, edgeString),
    lastName: mostly(c.lastName, edgeString),
    email: mostly(c.email, fc.oneof(edgeString, fc.emailAddress(), fc.constant(null))),
    phone: mostly(c.phone, edgeString),
    address: fc.record({
      line1: mostly(a.line1, edgeString),
      line2: mostly(a.line2, edgeString),
      city: mostly(a.city, edgeString),
      state: mostly(a.state, edgeString),
      zipCode: mostly(a.zipCode, edgeString),
    }),
  });
  return fc
    .record({
      customer: fc.oneof(fc.constant(c), edgeCustomer),
      lineItems: edgeLineItems(ids),
      daysSupply: fc.constantFrom(30, 60, 90),
      shippingMethod: fc.constantFrom('STANDARD', 'EXPRESS', 'OVERNIGHT'),
    })
    .map((parts) => ({ ...valid, ...parts }));
}
