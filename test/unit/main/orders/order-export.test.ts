import { describe, expect, it } from 'vitest';
import { readCsv } from '@main/csv-text';
import {
  ORDER_EXPORT_HEADER,
  exportOrdersCsv,
  exportSelectedOrdersCsv,
} from '@main/orders/order-export';
import type { OrderQuery } from '@main/orders/orders-repo';
import { ORDER_STATUSES, type AppOrder } from '@shared/api';
import { appOrder, memoryStore } from '@test/support/store-fixtures';

const BASE = Date.parse('2025-03-01T10:00:00Z');
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger'];
const LAST = ['Lovelace', 'Hopper', 'Turing'];

function queueOrder(i: number): AppOrder {
  const base = appOrder('x');
  return appOrder(`ord_${String(i).padStart(4, '0')}`, {
    status: ORDER_STATUSES[i % ORDER_STATUSES.length]!,
    // Several orders share a createdAt: the id breaks the tie, as in the queue.
    createdAt: new Date(BASE + Math.floor(i / 3) * 3_600_000).toISOString(),
    customer: {
      ...base.customer,
      firstName: FIRST[i % FIRST.length]!,
      lastName: LAST[Math.floor(i / 4) % LAST.length]!,
      sourceId: `PAT-${i % 7}`,
    },
  });
}

const column = (name: string) => {
  const index = ORDER_EXPORT_HEADER.indexOf(name);
  if (index < 0) throw new Error(`no column ${name}`);
  return index;
};

describe('order queue export', () => {
  it('writes the documented columns, one row per order, money in currency units', () => {
    const store = memoryStore();
    const order = appOrder('ord_cols', {
      createdAt: '2025-03-01T10:15:00.000Z',
      updatedAt: '2025-03-02T08:00:00.000Z',
      status: 'SHIPPED',
      subtotalPrice: '120.50',
      totalDiscount: '12.05',
      totalVolumeDiscount: '0.00',
      totalFees: '5.00',
      totalShipping: '9.99',
      totalPrice: '123.44',
      shippingMethod: 'EXPRESS',
      fulfillmentInfo: {
        carrier: 'UPS',
        trackingNumber: '1Z999AA10123456784',
        trackingStatus: 'InTransit',
        trackingUrl: null,
        checkpoints: null,
      },
    });
    store.orders.upsert(order, { source: 'pulled' });
    const { csv, rows } = exportOrdersCsv(store.orders, {});
    expect(rows).toBe(1);
    const table = readCsv(csv);
    expect(table.header).toEqual([...ORDER_EXPORT_HEADER]);
    expect(table.header).toEqual([
      'Order ID',
      'Created (UTC)',
      'Created (local time)',
      'Status',
      'Patient ID',
      'First name',
      'Last name',
      'Email',
      'Phone',
      'Ship to',
      'Items',
      'Quantity',
      'Order type',
      'Days supply',
      'Subtotal',
      'Discount',
      'Volume discount',
      'Fees',
      'Shipping',
      'Total',
      'Shipping method',
      'Carrier',
      'Tracking number',
      'Updated (UTC)',
    ]);
    const cells = table.rows[0]!.cells;
    const cell = (name: string) => cells[column(name)];
    expect(cell('Order ID')).toBe('ord_cols');
    expect(cell('Created (UTC)')).toBe('2025-03-01T10:15:00.000Z');
    expect(cell('Created (local time)')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(new Date(cell('Created (local time)')!.replace(' ', 'T')).getTime()).toBe(
      Date.parse('2025-03-01T10:15:00.000Z'),
    );
    expect(cell('Status')).toBe('SHIPPED');
    expect(cell('Patient ID')).toBe(order.customer.sourceId);
    expect(cell('Email')).toBe(order.customer.email ?? '');
    expect(cell('Items')).toMatch(/^\d+ × .+/);
    expect(Number(cell('Quantity'))).toBe(order.lineItems.reduce((n, li) => n + li.quantity, 0));
    expect(
      ['Subtotal', 'Discount', 'Volume discount', 'Fees', 'Shipping', 'Total'].map(cell),
    ).toEqual(['120.50', '12.05', '0.00', '5.00', '9.99', '123.44']);
    expect(cell('Shipping method')).toBe('EXPRESS');
    expect(cell('Carrier')).toBe('UPS');
    expect(cell('Tracking number')).toBe('1Z999AA10123456784');
    expect(cell('Updated (UTC)')).toBe('2025-03-02T08:00:00.000Z');
    store.close();
  });

  it('quotes names with commas, quotes and line breaks, and defuses formula-looking text', () => {
    const store = memoryStore();
    const base = appOrder('x');
    store.orders.upsert(
      appOrder('ord_quote', {
        customer: {
          ...base.customer,
          firstName: 'Mary, "Molly"',
          lastName: 'O\u2019Brien\nSmith',
          email: null,
          phone: null,
          address: { ...base.customer.address, line2: 'Apt 4, rear' },
        },
        lineItems: [
          { ...base.lineItems[0]!, name: 'Zinc, chelated', packDescription: '60 caps' },
          { ...base.lineItems[0]!, productId: 1042, name: null, packDescription: null },
        ],
      }),
      { source: 'pulled' },
    );
    store.orders.upsert(
      appOrder('ord_formula', {
        customer: { ...base.customer, firstName: '=HYPERLINK("x")', lastName: '+1' },
      }),
      { source: 'pulled' },
    );
    const { csv } = exportOrdersCsv(store.orders, {});
    expect(csv).toContain('"Mary, ""Molly"""');
    expect(csv).toContain('"O\u2019Brien\nSmith"');
    expect(csv).toContain(`'=HYPERLINK(""x"")`);
    const byId = new Map(readCsv(csv).rows.map((r) => [r.cells[0], r.cells]));
    const quoted = byId.get('ord_quote')!;
    expect(quoted[column('First name')]).toBe('Mary, "Molly"');
    expect(quoted[column('Last name')]).toBe('O\u2019Brien\nSmith');
    expect(quoted[column('Email')]).toBe('');
    expect(quoted[column('Ship to')]).toContain(', Apt 4, rear, ');
    expect(quoted[column('Items')]).toBe(
      `${base.lineItems[0]!.quantity} × Zinc, chelated (60 caps); ${base.lineItems[0]!.quantity} × Product 1042`,
    );
    // Read back, the defused cells are the text that was written.
    expect(byId.get('ord_formula')![column('First name')]).toBe('=HYPERLINK("x")');
    expect(byId.get('ord_formula')![column('Last name')]).toBe('+1');
    store.close();
  });

  describe('applies the filters exactly as the queue lists them', () => {
    const store = memoryStore();
    store.orders.upsertMany(
      Array.from({ length: 250 }, (_, i) => queueOrder(i)),
      'pulled',
    );
    const at = (hours: number) => new Date(BASE + hours * 3_600_000).toISOString();
    const queries: [string, Omit<OrderQuery, 'limit' | 'offset'>][] = [
      ['every order', {}],
      ['two statuses', { statuses: ['SHIPPED', 'NEW'] }],
      ['no status chip matches', { statuses: [] }],
      ['search words', { search: 'grace TURING' }],
      ['a date range', { createdFrom: at(10), createdTo: at(40) }],
      ['everything at once', { statuses: ['NEW', 'CANCELLED'], search: 'a', createdFrom: at(5) }],
      ['one patient', { sourceId: 'PAT-3' }],
    ];
    it.each(queries)('%s', (_name, query) => {
      // The whole list, page by page, as the queue reads it.
      const listed: string[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = store.orders.list({ ...query, limit: 100, offset });
        listed.push(...page.map((o) => o.id));
        if (page.length < 100) break;
      }
      expect(listed.length).toBe(store.orders.count(query));
      const { csv, rows } = exportOrdersCsv(store.orders, query);
      expect(rows).toBe(listed.length);
      expect(readCsv(csv).rows.map((r) => r.cells[0])).toEqual(listed);
    });
  });

  it('writes only the header when nothing matches', () => {
    const store = memoryStore();
    const { csv, rows } = exportOrdersCsv(store.orders, { search: 'nobody' });
    expect(rows).toBe(0);
    expect(csv).toBe(`\uFEFF${ORDER_EXPORT_HEADER.join(',')}\r\n`);
    store.close();
  });

  it('exports exactly the selected orders, in the queue order, the same columns as the queue', () => {
    const store = memoryStore();
    for (let i = 0; i < 12; i++) store.orders.upsert(queueOrder(i), { source: 'pulled' });
    const chosen = ['ord_0002', 'ord_0010', 'ord_0000', 'ord_0001', 'ord_0010'];
    const file = exportSelectedOrdersCsv(store.orders, chosen);
    if ('missing' in file) throw new Error('all are in the store');
    expect(file.rows).toBe(4);
    const table = readCsv(file.csv);
    expect(table.header).toEqual(ORDER_EXPORT_HEADER);
    // Newest first; ord_0000..0002 share a createdAt, the id breaks the tie as in the queue.
    const ids = table.rows.map((r) => r.cells[column('Order ID')]);
    expect(ids).toEqual(['ord_0010', 'ord_0002', 'ord_0001', 'ord_0000']);
    const queue = exportOrdersCsv(store.orders, {});
    const queueRows = readCsv(queue.csv).rows.filter((r) =>
      ids.includes(r.cells[column('Order ID')]!),
    );
    expect(table.rows.map((r) => r.cells)).toEqual(queueRows.map((r) => r.cells));
    store.close();
  });

  it('refuses a selection naming an order the store does not hold, rather than leaving it out', () => {
    const store = memoryStore();
    store.orders.upsert(queueOrder(1), { source: 'pulled' });
    expect(exportSelectedOrdersCsv(store.orders, ['ord_0001', 'ord_gone'])).toEqual({
      missing: ['ord_gone'],
    });
    store.close();
  });
});
