import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProtocolRequest } from '@shared/api';
import { writeCsv } from '@main/csv-text';
import { headerRow } from '@main/csv/csv-columns';
import { exportProtocols } from '@main/csv/protocol-export';
import { planImport } from '@main/csv/protocol-import';
import type { LocalStore } from '@main/stores';
import { memoryStore, product } from '@test/support/store-fixtures';
import { serverProtocols, startSyncHarness, type SyncHarness } from '@test/support/sync-harness';

/**
 * The CSV round trip against the real store (SQLite): export → import gives the same
 * protocols; a file mixing good and bad rows imports exactly the good ones as drafts queued for
 * the server, in one transaction; 10,000 rows go through preview and commit.
 */

const CATALOG = [
  product(1001, { name: 'Magnesium, glycinate', packDescription: '1 capsule' }),
  product(1002, { name: 'Vitamin "D3"', packDescription: '1 softgel' }),
  product(1035, { name: 'Protein Powder', external: true, packDescription: '1 tub' }),
];

function catalogStore(): LocalStore & { clock: { advance(ms: number): void } } {
  const store = memoryStore();
  store.products.upsertMany(CATALOG);
  return store;
}

/** A protocol as the editor makes it: pack lines carry the catalog's pack description. */
function editorProtocol(i: number): ProtocolRequest {
  const names = ['Zoë', '=cmd|calc', 'Ann, Marie', 'O"Brien', '+Plus', '日本', '@home', '-dash'];
  const lines: ProtocolRequest['lineItems'] = [
    {
      productId: 1001,
      quantity: 1 + (i % 3),
      packDescription: '1 capsule',
      administration: { morning: 1, afternoon: 0, evening: i % 3, sleep: 0 },
    },
  ];
  if (i % 2 === 0)
    lines.push({
      productId: 1002,
      quantity: 4,
      packDescription: '1 softgel',
      administration: { morning: 1, afternoon: 1, evening: 1, sleep: 1 },
    });
  if (i % 3 === 0) lines.push({ productId: 1035, quantity: 2, administration: null });
  return {
    customer: {
      sourceId: `RT-${i}`,
      firstName: names[i % names.length]!,
      lastName: `Round, "Trip" ${i}`,
      email: i % 4 === 0 ? null : `p${i}@example.com`,
      phone: i % 2 === 0 ? '+1 503 555 0100' : null,
      address: {
        line1: `${i} Main St, Suite "B"`,
        line2: i % 3 === 0 ? 'Apt 4' : null,
        city: 'Portland',
        state: 'OR',
        zipCode: '97210',
      },
    },
    daysSupply: ([30, 60, 90] as const)[i % 3]!,
    shippingMethod: (['STANDARD', 'EXPRESS', 'OVERNIGHT'] as const)[i % 3]!,
    orderType: i % 2 === 0 ? 'ONE_TIME' : 'SUBSCRIPTION',
    lineItems: lines,
  };
}

const countOf = (store: LocalStore, table: 'protocols' | 'jobs') =>
  (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

const bySource = (store: LocalStore) =>
  store.protocols
    .matchingDrafts({ sort: 'name' })
    .sort((a, b) => a.customer.sourceId.localeCompare(b.customer.sourceId));

let h: SyncHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('protocol CSV round trip', () => {
  it('export then import gives the same protocols', () => {
    const from = catalogStore();
    const drafts = Array.from({ length: 24 }, (_, i) => editorProtocol(i));
    from.protocols.createDrafts(drafts);
    const exported = exportProtocols(from, { sort: 'name' });
    expect(exported.rows).toBe(24);

    const into = catalogStore();
    const plan = planImport(into, exported.csv);
    expect(plan.preview).toMatchObject({ total: 24, ready: 24, bad: [] });
    into.protocols.createDrafts(plan.requests);
    expect(bySource(into)).toEqual(bySource(from));
    // And the file the second store exports is the same file.
    expect(exportProtocols(into, { sort: 'name' }).csv).toBe(exported.csv);
  });

  it('flags exactly the bad rows, and imports exactly the good ones as drafts that sync', async () => {
    h = await startSyncHarness();
    await h.engine.syncNow(); // the catalog mirror, from the sandbox
    const header = headerRow(2);
    const row = (cells: Record<string, string>) => header.map((c) => cells[c] ?? '');
    const patient = (id: string, more: Record<string, string> = {}) => ({
      'Patient ID': id,
      'First name': 'Csv',
      'Last name': `Patient ${id}`,
      'Address line 1': '1 Main St',
      City: 'Portland',
      State: 'OR',
      'ZIP code': '97210',
      'Days supply': '30',
      'Shipping method': 'STANDARD',
      'Order type': 'ONE_TIME',
      'Product 1 ID': '1001',
      'Product 1 morning': '2',
      ...more,
    });
    const text = writeCsv(header, [
      row(patient('csv-good-1')),
      row(patient('csv-bad-zip', { 'ZIP code': '972' })),
      row(patient('csv-good-2', { 'Product 2 ID': '1035', 'Product 2 quantity': '1' })),
      row(patient('csv-bad-product', { 'Product 1 ID': '1028' })),
      row(patient('csv-good-1')),
      row(patient('csv-good-3', { 'Days supply': '90', 'Order type': 'Subscription' })),
    ]);
    const { preview } = planImport(h.store, text);
    expect(preview.good.map((g) => g.sourceId)).toEqual(['csv-good-1', 'csv-good-2', 'csv-good-3']);
    expect(preview.bad).toEqual([
      {
        row: 3,
        label: 'Csv Patient csv-bad-zip (csv-bad-zip)',
        reasons: [{ column: 'ZIP code', message: 'must be exactly 5 digits' }],
      },
      {
        row: 5,
        label: 'Csv Patient csv-bad-product (csv-bad-product)',
        reasons: [
          { column: 'Product 1 ID', message: 'product 1028 is discontinued and cannot be ordered' },
        ],
      },
      {
        row: 6,
        label: 'Csv Patient csv-good-1 (csv-good-1)',
        reasons: [
          {
            column: null,
            message: expect.stringMatching(/^repeats row 2: the same patient/),
          },
        ],
      },
    ]);
    // Nothing is written by a preview.
    expect(countOf(h.store, 'protocols')).toBe(0);

    const ids = h.protocols.importMany(planImport(h.store, text).requests);
    expect(ids).toHaveLength(3);
    for (const id of ids) {
      expect(h.store.protocols.get(id)).toMatchObject({
        syncState: 'pending',
        serverId: null,
        change: { op: 'create', state: 'queued' },
      });
    }
    const report = await h.engine.syncNow();
    expect(report.push.pushed).toBe(3);
    const onServer = (await serverProtocols(h.sandbox)).map((p) => p.customer.sourceId).sort();
    expect(onServer).toEqual(['csv-good-1', 'csv-good-2', 'csv-good-3']);
    for (const id of ids) expect(h.store.protocols.get(id)?.syncState).toBe('synced');
  });

  it('a failure in the middle of a commit leaves nothing written', () => {
    const store = catalogStore();
    const drafts = Array.from({ length: 5 }, (_, i) => editorProtocol(i));
    const enqueue = store.jobs.enqueue.bind(store.jobs);
    let calls = 0;
    const spy = vi.spyOn(store.jobs, 'enqueue').mockImplementation((job) => {
      if (++calls === 3) throw new Error('disk full');
      return enqueue(job);
    });
    expect(() => store.protocols.createDrafts(drafts)).toThrow('disk full');
    expect(calls).toBe(3);
    expect(countOf(store, 'protocols')).toBe(0);
    expect(countOf(store, 'jobs')).toBe(0);
    spy.mockRestore();
    expect(store.protocols.createDrafts(drafts)).toHaveLength(5);
    expect(countOf(store, 'jobs')).toBe(5);
  });

  it('handles 10,000 rows through preview and commit', () => {
    const store = catalogStore();
    const header = headerRow(3);
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const cells = header.map(() => '');
      const set = (column: string, value: string) => (cells[header.indexOf(column)] = value);
      set('Patient ID', `BULK-${String(i).padStart(5, '0')}`);
      set('First name', 'Bulk');
      set('Last name', `Patient ${i}`);
      set('Email', `bulk${i}@example.com`);
      set('Address line 1', `${i} Long Road, Unit ${i % 40}`);
      set('City', 'Portland');
      set('State', 'OR');
      set('ZIP code', '97210');
      set('Days supply', '30');
      set('Shipping method', 'STANDARD');
      set('Order type', 'ONE_TIME');
      set('Product 1 ID', '1001');
      set('Product 1 name', 'Magnesium, glycinate');
      set('Product 1 morning', '1');
      set('Product 1 evening', String(i % 3));
      set('Product 2 ID', '1035');
      set('Product 2 quantity', '1');
      // Every 1,000th row has a problem.
      if (i % 1000 === 999) set('ZIP code', 'none');
      return cells;
    });
    const text = writeCsv(header, rows);
    const plan = planImport(store, text);
    expect(plan.preview).toMatchObject({ total: 10_000, ready: 9_990 });
    expect(plan.preview.bad.map((b) => b.row)).toEqual(
      Array.from({ length: 10 }, (_, k) => 1000 * k + 1001),
    );
    store.protocols.createDrafts(plan.requests);
    expect(countOf(store, 'protocols')).toBe(9_990);
    expect(store.jobs.counts({ kind: 'protocol' })).toMatchObject({ queued: 9_990 });
    expect(store.protocols.list({ search: 'BULK-09998' }).items).toHaveLength(1);
  });
});
