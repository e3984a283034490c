import type { ProductRead, ProtocolDraft } from '@shared/api';
import type { CsvFile } from '@shared/csv-file';
import type { ProtocolMatchQuery, ProtocolOrder } from '../protocols/protocols-repo';
import type { LocalStore } from '../stores';
import { writeCsv, type CsvCell } from '../csv-text';
import { DOSE_FIELDS, headerRow, PRODUCT_FIELDS } from './csv-columns';

/** Product groups in the template: room for a typical protocol; more can be added by hand. */
export const TEMPLATE_GROUPS = 3;

/** One protocol as a row of the columns (docs/csv.md); `name` gives a product's catalog name. */
function protocolRow(
  draft: ProtocolDraft,
  groups: number,
  name: (productId: number) => string | undefined,
): CsvCell[] {
  const c = draft.customer;
  const cells: CsvCell[] = [
    c.sourceId,
    c.firstName,
    c.lastName,
    c.email,
    c.phone,
    c.address.line1,
    c.address.line2,
    c.address.city,
    c.address.state,
    c.address.zipCode,
    draft.daysSupply,
    draft.shippingMethod,
    draft.orderType,
  ];
  for (let i = 0; i < groups; i++) {
    const li = draft.lineItems[i];
    if (!li) {
      cells.push(...Array<CsvCell>(PRODUCT_FIELDS.length).fill(''));
      continue;
    }
    const a = li.administration;
    // A pack line is its doses (the quantity is their sum); any other line is its quantity.
    cells.push(
      li.productId,
      name(li.productId) ?? '',
      ...DOSE_FIELDS.map((f) => (a ? a[f] : '')),
      a ? '' : li.quantity,
    );
  }
  return cells;
}

/**
 * Protocols as a CSV file: as many product groups as the protocol with the most products (at
 * least `minGroups`). The rows are made as writeCsv takes them, never all held at once.
 */
export function protocolsCsv(
  drafts: readonly ProtocolDraft[],
  name: (productId: number) => string | undefined,
  minGroups = 1,
): string {
  // reduce, not Math.max(...): spreading 100,000+ arguments overflows the stack.
  const groups = drafts.reduce((most, d) => Math.max(most, d.lineItems.length), minGroups);
  return writeCsv(
    headerRow(groups),
    (function* () {
      for (const d of drafts) yield protocolRow(d, groups, name);
    })(),
  );
}

const catalogNames = (products: readonly ProductRead[]) => {
  const names = new Map(products.map((p) => [p.id, p.name]));
  return (id: number) => names.get(id);
};

/**
 * The protocols the list shows (its search, filters and sort), in its order, and the ids the
 * file holds (for the activity record).
 */
export function exportProtocols(
  store: LocalStore,
  query: ProtocolMatchQuery & ProtocolOrder,
): CsvFile & { touched: { protocols: string[]; patients: string[] } } {
  return store.transaction(() => {
    const drafts = store.protocols.matchingDrafts(query);
    return {
      csv: protocolsCsv(drafts, catalogNames(store.products.list())),
      rows: drafts.length,
      touched: {
        protocols: store.protocols.matchingIds(query),
        patients: drafts.map((d) => d.customer.sourceId),
      },
    };
  });
}

const EXAMPLE_CUSTOMERS = [
  {
    sourceId: 'EXAMPLE-001',
    firstName: 'Jane',
    lastName: 'Example',
    email: 'jane@example.com',
    phone: '503 555 0100',
    address: {
      line1: '1 Main St',
      line2: 'Apt 2',
      city: 'Portland',
      state: 'OR',
      zipCode: '97210',
    },
  },
  {
    sourceId: 'EXAMPLE-002',
    firstName: 'John',
    lastName: 'Sample',
    email: null,
    phone: null,
    address: { line1: '20 Oak Ave', line2: null, city: 'Salem', state: 'OR', zipCode: '97301' },
  },
];

/** Pack and other products that can be ordered, for the template's examples. */
function exampleLines(products: readonly ProductRead[]): ProtocolDraft['lineItems'][] {
  const orderable = products.filter((p) => p.status === 'ACTIVE');
  const packs = orderable.filter((p) => !p.external);
  const other = orderable.find((p) => p.external);
  if (packs.length === 0) return [];
  const line = (p: ProductRead, morning: number, evening: number) => ({
    productId: p.id,
    quantity: morning + evening,
    administration: { morning, afternoon: 0, evening, sleep: 0 },
  });
  const first = [line(packs[0]!, 1, 1)];
  if (packs[1]) first.push(line(packs[1], 1, 0));
  const second = [line(packs[packs.length > 2 ? 2 : 0]!, 0, 1)];
  return [
    first,
    other ? [...second, { productId: other.id, quantity: 1, administration: null }] : second,
  ];
}

/**
 * The template: the header with TEMPLATE_GROUPS product groups, and two example rows made of
 * products of the synced catalog (none when the catalog was never synced).
 */
export function protocolsTemplate(store: LocalStore): CsvFile {
  const products = store.products.list();
  const examples = exampleLines(products).map((lineItems, i): ProtocolDraft => ({
    customer: EXAMPLE_CUSTOMERS[i]!,
    daysSupply: i === 0 ? 30 : 90,
    shippingMethod: i === 0 ? 'STANDARD' : 'EXPRESS',
    orderType: i === 0 ? 'ONE_TIME' : 'SUBSCRIPTION',
    lineItems,
  }));
  return {
    csv: protocolsCsv(examples, catalogNames(products), TEMPLATE_GROUPS),
    rows: examples.length,
  };
}
