import {
  DAYS_SUPPLY_VALUES,
  OrderType,
  DOSE_MAX,
  PACK_DESCRIPTION_MAX,
  administrationTotal,
  type ProtocolRequest,
  QUANTITY_MAX,
  SHIPPING_METHODS,
  checkLineItemsAgainstCatalog,
  type LineItemRequest,
  type ProductStatusRead,
} from '@shared/api';
import { ORDER_TYPE_WORDS, SHIPPING_METHOD_WORDS } from '@shared/order-words';
import { NOT_A_PHONE, ProtocolInput } from '@shared/protocol-input';
import type { CsvRowReason } from '@shared/protocol-csv-views';
import { stateCodeOf } from '@shared/us-states';
import {
  DOSE_FIELDS,
  fixedHeader,
  headerOf,
  PRODUCT_FIELDS,
  productHeader,
  type ColumnMap,
  type FixedKey,
  type ProductField,
} from './csv-columns';

/** What a row's check needs to know of a product in the catalog mirror. */
export interface CatalogProduct {
  name: string;
  external: boolean;
  status: ProductStatusRead;
  packDescription: string;
}

/** The catalog mirror as the import sees it; `checked` false when it was never synced. */
export interface ImportCatalog {
  checked: boolean;
  get(productId: number): CatalogProduct | undefined;
}

export type ParsedRow =
  | { ok: true; request: ProtocolRequest; warnings: string[] }
  | { ok: false; reasons: CsvRowReason[] };

/** "is required", "must be exactly 5 digits": a shared rule's message as a sentence. */
export function sentence(message: string): string {
  if (message === 'required') return 'is required';
  if (message === 'email address') return 'is not an email address';
  if (message.startsWith('no control characters'))
    return 'must be one line of text, without tabs or line breaks';
  if (/^(at most|at least|exactly|state or province)/.test(message)) return `must be ${message}`;
  return message;
}

const WHOLE = /^\d{1,7}$/;
const letters = (text: string) => text.toUpperCase().replace(/[^A-Z]/g, '');

/** The cells of one row, by column. */
class RowCells {
  constructor(
    private readonly cells: readonly string[],
    readonly map: ColumnMap,
  ) {}
  at(index: number | undefined): string {
    return index === undefined ? '' : (this.cells[index] ?? '').trim();
  }
  fixed(key: FixedKey): string {
    return this.at(this.map.fixed[key]);
  }
  /** Non-empty cells beyond the header's columns. */
  overflow(): number {
    return this.cells.slice(this.map.width).filter((c) => c.trim() !== '').length;
  }
}

/** The patient as far as a row says: "Ada Lovelace (PAT-1)", or null. */
export function rowLabel(cells: readonly string[], map: ColumnMap): string | null {
  const row = new RowCells(cells, map);
  const name = `${row.fixed('firstName')} ${row.fixed('lastName')}`.trim();
  const id = row.fixed('sourceId');
  const label = name && id ? `${name} (${id})` : name || id;
  return label ? label.slice(0, 120) : null;
}

/** A product group's line, or why it is not one; null when the group is empty. */
function parseLine(
  row: RowCells,
  group: ColumnMap['groups'][number],
  catalog: ImportCatalog,
  reasons: CsvRowReason[],
): LineItemRequest | null {
  const cell = (field: ProductField) => row.at(group.fields[field]);
  const column = (field: ProductField) => productHeader(group.n, field);
  const given = PRODUCT_FIELDS.some((f) => cell(f.key) !== '');
  if (!given) return null;
  const before = reasons.length;
  const idText = cell('id');
  let productId = 0;
  if (idText === '') {
    reasons.push({
      column: column('id'),
      message: 'is required when the product has a name, doses or a quantity',
    });
  } else if (!WHOLE.test(idText) || Number(idText) === 0) {
    reasons.push({
      column: column('id'),
      message: `"${idText}" is not a product ID (a number such as 1001, shown in the Catalog)`,
    });
  } else productId = Number(idText);

  const whole = (field: ProductField, min: number, max: number): number | null => {
    const text = cell(field);
    if (text === '') return null;
    if (!WHOLE.test(text) || Number(text) < min || Number(text) > max) {
      reasons.push({
        column: column(field),
        message: `"${text}" is not a whole number from ${min} to ${max}`,
      });
      return null;
    }
    return Number(text);
  };
  const doses = DOSE_FIELDS.map((f) => whole(f, 0, DOSE_MAX));
  const quantity = whole('quantity', 1, QUANTITY_MAX);
  const product = productId ? catalog.get(productId) : undefined;
  const dosesGiven = DOSE_FIELDS.some((f) => cell(f) !== '');
  // The catalog says whether the product goes in the daily packs; without it, the row does.
  const external = product ? product.external : !dosesGiven && cell('quantity') !== '';

  if (external) {
    DOSE_FIELDS.forEach((f, i) => {
      if (doses[i]) {
        reasons.push({
          column: column(f),
          message: `must be empty: product ${productId} is not taken in the daily packs, so it has a quantity instead of doses`,
        });
      }
    });
    if (cell('quantity') === '') {
      reasons.push({
        column: column('quantity'),
        message: `is required: product ${productId} is not taken in the daily packs (units per 30 days)`,
      });
    }
    if (reasons.length > before || quantity === null) return null;
    return { productId, quantity, administration: null };
  }
  if (!dosesGiven) {
    reasons.push({
      column: `Product ${group.n} doses`,
      message: product
        ? `product ${productId} is taken in the daily packs: give its pills in the morning, afternoon, evening and bedtime columns`
        : 'give the doses (a product in the daily packs) or a quantity (a product outside them)',
    });
    return null;
  }
  if (reasons.length > before) return null;
  const [morning = 0, afternoon = 0, evening = 0, sleep = 0] = doses.map((d) => d ?? 0);
  const administration = { morning, afternoon, evening, sleep };
  const total = administrationTotal(administration);
  if (total === 0 || total > QUANTITY_MAX) {
    reasons.push({
      column: `Product ${group.n} doses`,
      message:
        total === 0
          ? 'add up to 0: give at least one pill a day'
          : `add up to ${total}: at most ${QUANTITY_MAX} pills a day`,
    });
    return null;
  }
  if (quantity !== null && quantity !== total) {
    reasons.push({
      column: column('quantity'),
      message: `is ${quantity} but the doses add up to ${total}: leave it empty for a product in the daily packs, or make it ${total}`,
    });
    return null;
  }
  const pack = product?.packDescription;
  return {
    productId,
    quantity: total,
    ...(pack && pack.length <= PACK_DESCRIPTION_MAX ? { packDescription: pack } : {}),
    administration,
  };
}

/** The option a cell names (compared after `normalize`), 'missing' when empty, null when none. */
function choice<T extends string | number>(
  text: string,
  options: readonly T[],
  normalize: (t: string) => string,
): T | 'missing' | null {
  if (text === '') return 'missing';
  return options.find((o) => normalize(String(o)) === normalize(text)) ?? null;
}

const ORDER_TYPES = OrderType.options;
const or = (options: readonly (string | number)[]) =>
  `${options.slice(0, -1).join(', ')} or ${options.at(-1)}`;

/** The column a path of ProtocolRequest is written in. */
function columnOfPath(path: readonly PropertyKey[], groups: readonly number[]): string | null {
  const [head, index, field, dose] = path;
  if (head === 'customer') return headerOf(String(index === 'address' ? field : index));
  if (head === 'lineItems') {
    const n = typeof index === 'number' ? (groups[index] ?? 1) : 1;
    if (field === 'administration' && typeof dose === 'string')
      return productHeader(n, dose as ProductField);
    if (field === 'quantity') return productHeader(n, 'quantity');
    return productHeader(n, 'id');
  }
  return headerOf(String(head));
}

/**
 * One data row as a protocol request, by the shared rules (ProtocolInput, and the catalog's
 * rules when the catalog was synced), or every reason it is not one, each on its column.
 */
export function parseProtocolRow(
  cells: readonly string[],
  map: ColumnMap,
  catalog: ImportCatalog,
): ParsedRow {
  const row = new RowCells(cells, map);
  const reasons: CsvRowReason[] = [];
  const overflow = row.overflow();
  if (overflow > 0) {
    reasons.push({
      column: null,
      message: `has ${overflow} value(s) after the last column of the header; a value with a comma in it needs double quotes around it`,
    });
  }
  const optional = (key: FixedKey) => row.fixed(key) || null;

  const days = choice(row.fixed('daysSupply'), DAYS_SUPPLY_VALUES, (t) => t.trim());
  const shipping = choice(row.fixed('shippingMethod'), SHIPPING_METHODS, letters);
  const orderType = choice(row.fixed('orderType'), ORDER_TYPES, letters);
  // Named in the words the screens use (any case and spacing of them is read, as are the codes).
  const choices = [
    ['daysSupply', days, DAYS_SUPPLY_VALUES],
    ['shippingMethod', shipping, SHIPPING_METHODS.map((m) => SHIPPING_METHOD_WORDS[m])],
    ['orderType', orderType, ORDER_TYPES.map((t) => ORDER_TYPE_WORDS[t])],
  ] as const;
  for (const [key, value, options] of choices) {
    if (value === 'missing') reasons.push({ column: fixedHeader(key), message: 'is required' });
    else if (value === null) {
      reasons.push({
        column: fixedHeader(key),
        message: `"${row.fixed(key)}" is not one of ${or(options)}`,
      });
    }
  }

  const groups: number[] = [];
  const lineItems: LineItemRequest[] = [];
  let lineProblems = false;
  for (const group of map.groups) {
    const before = reasons.length;
    const line = parseLine(row, group, catalog, reasons);
    if (reasons.length > before) lineProblems = true;
    if (line) {
      groups.push(group.n);
      lineItems.push(line);
    }
  }
  if (lineItems.length === 0 && !lineProblems) {
    reasons.push({
      column: productHeader(1, 'id'),
      message: 'is required: a protocol has at least one product',
    });
  }

  const candidate = {
    customer: {
      sourceId: row.fixed('sourceId'),
      firstName: row.fixed('firstName'),
      lastName: row.fixed('lastName'),
      email: optional('email'),
      phone: optional('phone'),
      address: {
        line1: row.fixed('line1'),
        line2: optional('line2'),
        city: row.fixed('city'),
        // A code or a full name, in any case ("tx", "Texas"); stored as the code.
        state: stateCodeOf(row.fixed('state')) ?? row.fixed('state'),
        zipCode: row.fixed('zipCode'),
      },
    },
    daysSupply: typeof days === 'number' ? days : 30,
    shippingMethod: shipping !== null && shipping !== 'missing' ? shipping : 'STANDARD',
    orderType: orderType !== null && orderType !== 'missing' ? orderType : 'ONE_TIME',
    lineItems,
  };
  // The shared rules decide; a column that already has a reason is not reported twice.
  const parsed = ProtocolInput.safeParse(candidate);
  const reported = new Set(reasons.map((r) => r.column));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === 'lineItems' && issue.path.length === 1 && lineProblems) continue;
      const column = columnOfPath(issue.path, groups);
      if (reported.has(column)) continue;
      reported.add(column);
      const zip = candidate.customer.address.zipCode;
      const droppedZero = issue.path.at(-1) === 'zipCode' && /^\d{4}$/.test(zip);
      const state = candidate.customer.address.state;
      reasons.push({
        column,
        message: droppedZero
          ? `"${zip}" must be exactly 5 digits; a spreadsheet drops the leading 0 of a number, so format the column as text`
          : issue.message === NOT_A_PHONE
            ? `"${candidate.customer.phone}" is not ${NOT_A_PHONE}`
            : issue.path.at(-1) === 'state'
              ? state === ''
                ? 'is required'
                : `"${state}" is not a US state: give its 2-letter code or its full name (such as TX or Texas)`
              : sentence(issue.message),
      });
    }
  }
  const seen = new Set<number>();
  lineItems.forEach((li, i) => {
    if (seen.has(li.productId)) {
      reasons.push({
        column: productHeader(groups[i]!, 'id'),
        message: `product ${li.productId} is listed twice in this row`,
      });
    }
    seen.add(li.productId);
  });
  if (catalog.checked) {
    const problems = checkLineItemsAgainstCatalog(lineItems, (id) => catalog.get(id), {
      packDescriptionRequiredForPack: false,
    });
    for (const p of problems) {
      // Doses against the product's kind were judged per line above; twice, just above.
      if (p.path[2] === 'administration' || p.message === 'product listed twice') continue;
      const i = p.path[1] as number;
      const id = lineItems[i]!.productId;
      const status = catalog.get(id)?.status;
      const message = !status
        ? `product ${id} is not in the catalog`
        : `product ${id} is ${status === 'DRAFT' ? 'not released yet (draft)' : 'discontinued'} and cannot be ordered`;
      reasons.push({ column: productHeader(groups[i]!, 'id'), message });
    }
  }
  if (reasons.length > 0 || !parsed.success) return { ok: false, reasons };
  const warnings: string[] = [];
  parsed.data.lineItems.forEach((li, i) => {
    const product = catalog.get(li.productId);
    if (!product) return;
    if (product.status === 'BACKORDERED')
      warnings.push(`Product ${li.productId} (${product.name}) is backordered.`);
    const name = row.at(map.groups.find((g) => g.n === groups[i])?.fields.name);
    if (name && name.toLowerCase() !== product.name.toLowerCase()) {
      warnings.push(
        `${productHeader(groups[i]!, 'name')} "${name}" is not the catalog's name of product ${li.productId} ("${product.name}"); the ID decides.`,
      );
    }
  });
  return { ok: true, request: parsed.data, warnings };
}
