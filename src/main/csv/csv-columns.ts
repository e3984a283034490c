import { LINE_ITEMS_MAX } from '@shared/api';

/**
 * The columns of a protocols CSV file (docs/csv.md): one row is one patient and one protocol.
 * The patient and the order take one column each; each product takes a numbered group of
 * columns (Product 1 ID, Product 1 name, Product 1 morning, ... Product 1 quantity), up to
 * LINE_ITEMS_MAX groups. Headers are matched ignoring case, spaces, underscores and hyphens.
 */

export const FIXED_COLUMNS = [
  { key: 'sourceId', header: 'Patient ID', required: true, aliases: ['Source ID'] },
  { key: 'firstName', header: 'First name', required: true, aliases: [] },
  { key: 'lastName', header: 'Last name', required: true, aliases: [] },
  { key: 'email', header: 'Email', required: false, aliases: [] },
  { key: 'phone', header: 'Phone', required: false, aliases: [] },
  { key: 'line1', header: 'Address line 1', required: true, aliases: [] },
  { key: 'line2', header: 'Address line 2', required: false, aliases: [] },
  { key: 'city', header: 'City', required: true, aliases: [] },
  { key: 'state', header: 'State', required: true, aliases: [] },
  { key: 'zipCode', header: 'ZIP code', required: true, aliases: ['ZIP'] },
  { key: 'daysSupply', header: 'Days supply', required: true, aliases: [] },
  { key: 'shippingMethod', header: 'Shipping method', required: true, aliases: [] },
  { key: 'orderType', header: 'Order type', required: true, aliases: [] },
] as const;
export type FixedKey = (typeof FIXED_COLUMNS)[number]['key'];

/** The columns of one product group, in the order they are written. */
export const PRODUCT_FIELDS = [
  { key: 'id', suffix: 'ID', aliases: [] },
  { key: 'name', suffix: 'name', aliases: [] },
  { key: 'morning', suffix: 'morning', aliases: [] },
  { key: 'afternoon', suffix: 'afternoon', aliases: [] },
  { key: 'evening', suffix: 'evening', aliases: [] },
  { key: 'sleep', suffix: 'bedtime', aliases: ['sleep'] },
  { key: 'quantity', suffix: 'quantity', aliases: [] },
] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number]['key'];
export const DOSE_FIELDS = ['morning', 'afternoon', 'evening', 'sleep'] as const;

/** Product groups in a file: Product 1 to Product PRODUCT_GROUPS_MAX. */
export const PRODUCT_GROUPS_MAX = LINE_ITEMS_MAX;

export const productHeader = (n: number, field: ProductField): string =>
  `Product ${n} ${PRODUCT_FIELDS.find((f) => f.key === field)!.suffix}`;

export const fixedHeader = (key: FixedKey): string =>
  FIXED_COLUMNS.find((c) => c.key === key)!.header;

/** The header of a fixed column named by its key ("zipCode" → "ZIP code"), or null. */
export const headerOf = (key: string): string | null =>
  FIXED_COLUMNS.find((c) => c.key === key)?.header ?? null;

/** The header of a file with `groups` product groups (export and template). */
export function headerRow(groups: number): string[] {
  const header: string[] = FIXED_COLUMNS.map((c) => c.header);
  for (let n = 1; n <= groups; n++)
    for (const f of PRODUCT_FIELDS) header.push(productHeader(n, f.key));
  return header;
}

/** "Product 1 ID", "product_1_id" and "PRODUCT1ID" are one column. */
export const headerKey = (header: string): string =>
  header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

const FIXED_BY_KEY = new Map<string, FixedKey>(
  FIXED_COLUMNS.flatMap((c) => [c.header, ...c.aliases].map((h) => [headerKey(h), c.key])),
);
const PRODUCT_FIELD_BY_SUFFIX = new Map<string, ProductField>(
  PRODUCT_FIELDS.flatMap((f) => [f.suffix, ...f.aliases].map((s) => [headerKey(s), f.key])),
);
const PRODUCT_HEADER = /^product0*(\d{1,4})(.+)$/;

/** Which column of the file holds what: the cell index of each fixed column and product field. */
export interface ColumnMap {
  fixed: Partial<Record<FixedKey, number>>;
  /** Product groups by number, ascending; each with the cell index of each field it has. */
  groups: { n: number; fields: Partial<Record<ProductField, number>> }[];
  /** How many header cells (a row with non-empty cells beyond them is refused). */
  width: number;
}

/** What a header cell names: a fixed column, a product field, or nothing known. */
type Named =
  | { kind: 'fixed'; key: FixedKey }
  | { kind: 'product'; n: number; field: ProductField }
  | { kind: 'unknown' }
  | { kind: 'too-many-products'; n: number };

function nameOf(header: string): Named {
  const key = headerKey(header);
  const fixed = FIXED_BY_KEY.get(key);
  if (fixed) return { kind: 'fixed', key: fixed };
  const product = PRODUCT_HEADER.exec(key);
  const field = product ? PRODUCT_FIELD_BY_SUFFIX.get(product[2]!) : undefined;
  if (!product || !field) return { kind: 'unknown' };
  const n = Number(product[1]);
  if (n < 1) return { kind: 'unknown' };
  if (n > PRODUCT_GROUPS_MAX) return { kind: 'too-many-products', n };
  return { kind: 'product', n, field };
}

/**
 * Maps a file's header to the columns, or lists every problem of the header: a required column
 * missing, a column not known, one named twice, a product group without its ID column.
 * `hasData(i)` says whether any row has a value in cell i (an unnamed column with no data, as
 * a spreadsheet leaves after the last one, is ignored).
 */
export function mapHeader(
  header: readonly string[],
  hasData: (index: number) => boolean,
): { map: ColumnMap } | { problems: string[] } {
  const problems: string[] = [];
  const fixed: ColumnMap['fixed'] = {};
  const groups = new Map<number, ColumnMap['groups'][number]['fields']>();
  const seen = new Map<string, string>();
  header.forEach((cell, i) => {
    if (cell === '') {
      if (hasData(i)) problems.push(`Column ${i + 1} has values but no name in the header row.`);
      return;
    }
    const named = nameOf(cell);
    if (named.kind === 'unknown') {
      problems.push(`"${cell}" is not a column Order Desk knows.`);
      return;
    }
    if (named.kind === 'too-many-products') {
      problems.push(
        `"${cell}": a protocol has at most ${PRODUCT_GROUPS_MAX} products (Product 1 to Product ${PRODUCT_GROUPS_MAX}).`,
      );
      return;
    }
    const id =
      named.kind === 'fixed' ? fixedHeader(named.key) : productHeader(named.n, named.field);
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      problems.push(`"${cell}" appears twice (also as "${earlier}").`);
      return;
    }
    seen.set(id, cell);
    if (named.kind === 'fixed') fixed[named.key] = i;
    else {
      const fields = groups.get(named.n) ?? {};
      fields[named.field] = i;
      groups.set(named.n, fields);
    }
  });
  for (const c of FIXED_COLUMNS) {
    if (c.required && fixed[c.key] === undefined)
      problems.push(`The required column "${c.header}" is missing.`);
  }
  if (!groups.has(1) || groups.get(1)!.id === undefined)
    problems.push(`The required column "${productHeader(1, 'id')}" is missing.`);
  for (const [n, fields] of groups) {
    if (n !== 1 && fields.id === undefined)
      problems.push(`Product ${n} has columns but no "${productHeader(n, 'id')}" column.`);
  }
  if (problems.length > 0) return { problems };
  return {
    map: {
      fixed,
      groups: [...groups].sort(([a], [b]) => a - b).map(([n, fields]) => ({ n, fields })),
      width: header.length,
    },
  };
}
