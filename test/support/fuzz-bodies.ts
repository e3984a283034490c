import fc from 'fast-check';
import { validOrderBody } from './sandbox';

/** Request bodies for the property-based tests: arbitrary JSON, raw text, and near-valid bodies. */

/** The 1.0.1 create-order body: `zip`, ONE-TIME, packDescription on every item. */
export function validV101Body() {
  const base = validOrderBody({ orderType: 'ONE-TIME' });
  const { zipCode, ...address } = base.customer.address;
  return {
    ...base,
    customer: { ...base.customer, address: { ...address, zip: zipCode } },
    lineItems: base.lineItems.map((li) => ({ packDescription: '1 scoop', ...li })),
  };
}

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
