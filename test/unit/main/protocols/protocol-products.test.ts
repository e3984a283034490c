import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeStore, openStore } from '@main/db';
import { MIGRATIONS } from '@main/db/migrations';
import { salvageTables } from '@main/db/salvage';
import { createLocalStore } from '@main/stores';
import {
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';
import { TEST_KEY } from '@test/support/store-key';

type Store = ReturnType<typeof memoryStore>;

const KRILL = 1030;

/** A line of `productId` (2 a day, mornings and evenings). */
const line = (productId: number) => ({
  productId,
  quantity: 1,
  administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
});

/** A local draft for "First Last" ordering these products; returns its localId. */
function draft(store: Store, name: string, products: number[], i = 0): string {
  const [firstName, lastName] = name.split(' ') as [string, string];
  store.clock.advance(1000);
  return store.protocols.createDraft(
    protocolRequest(
      { firstName, lastName, sourceId: `src-${name}-${i}`, email: null },
      { lineItems: products.map(line) },
    ),
  ).localId;
}

const names = (items: { customerName: string }[]) => items.map((p) => p.customerName);

describe('protocol list: the product filter', () => {
  it('shows only the protocols whose draft orders the product, with search, states and both sorts', () => {
    const store = memoryStore();
    draft(store, 'Ada Lovelace', [1001, KRILL]);
    draft(store, 'Grace Hopper', [1001]);
    draft(store, 'Alan Turing', [KRILL]);
    const pulled = serverProtocol(
      'prt_1',
      '2025-03-01T09:00:00Z',
      protocolRequest(
        { firstName: 'Edsger', lastName: 'Dijkstra', sourceId: 'ext-1' },
        { lineItems: [line(KRILL), line(1002)] },
      ),
    );
    mirrorProtocol(store, pulled);

    const krill = { productId: KRILL };
    expect(names(store.protocols.list({ ...krill, sort: 'name' }).items)).toEqual([
      'Edsger Dijkstra',
      'Ada Lovelace',
      'Alan Turing',
    ]);
    expect(names(store.protocols.list(krill).items)).toEqual([
      'Edsger Dijkstra',
      'Alan Turing',
      'Ada Lovelace',
    ]);
    expect(store.protocols.countMatching(krill)).toBe(3);
    expect(names(store.protocols.list({ ...krill, search: 'lovelace' }).items)).toEqual([
      'Ada Lovelace',
    ]);
    expect(names(store.protocols.list({ ...krill, syncStates: ['synced'] }).items)).toEqual([
      'Edsger Dijkstra',
    ]);
    expect(store.protocols.countMatching({ productId: 1002 })).toBe(1);
    // A product no protocol orders: nothing, and a clear zero.
    expect(store.protocols.list({ productId: 9999 })).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
    });
    expect(store.protocols.matchingIds({ productId: 1001 })).toHaveLength(2);
    expect(store.protocols.matchingDrafts({ productId: 1002 })).toHaveLength(1);
  });

  it('follows every write of the draft: an edit, a server copy taken, a delete, a forget', () => {
    const store = memoryStore();
    const ada = draft(store, 'Ada Lovelace', [KRILL]);
    const grace = draft(store, 'Grace Hopper', [1001]);
    const onKrill = () => names(store.protocols.list({ productId: KRILL, sort: 'name' }).items);
    expect(onKrill()).toEqual(['Ada Lovelace']);

    // Edited: Krill off Ada's protocol, onto Grace's.
    store.protocols.updateDraft(ada, {
      ...store.protocols.get(ada)!.draft,
      lineItems: [line(1001)],
    });
    store.protocols.updateDraft(grace, {
      ...store.protocols.get(grace)!.draft,
      lineItems: [line(1001), line(KRILL)],
    });
    expect(onKrill()).toEqual(['Grace Hopper']);
    expect(store.protocols.countMatching({ productId: 1001 })).toBe(2);

    // The mirror pull refreshes a synced protocol's draft from the server's copy.
    const server = serverProtocol(
      'prt_9',
      '2025-03-01T09:00:00Z',
      protocolRequest({ firstName: 'Alan', lastName: 'Turing', sourceId: 'ext-9' }),
    );
    mirrorProtocol(store, { ...server, lineItems: [] });
    mirrorProtocol(store, {
      ...server,
      updatedAt: '2025-03-02T09:00:00Z',
      lineItems: server.lineItems.map((li) => ({ ...li, productId: KRILL })).slice(0, 1),
    });
    expect(onKrill()).toEqual(['Grace Hopper', 'Alan Turing']);

    // A draft that never reached the server, deleted: gone with its pending change, and its
    // index rows with it.
    expect(store.protocols.deleteDraft(grace)).toBe('dropped');
    expect(onKrill()).toEqual(['Alan Turing']);
    const krillRows = () =>
      (
        store.db
          .prepare('SELECT COUNT(*) AS n FROM protocol_products WHERE product_id = ?')
          .get(KRILL) as { n: number }
      ).n;
    expect(krillRows()).toBe(1);
    // A synced one deleted: hidden unless asked for, kept until the delete is sent.
    const alan = store.protocols.getByServerId('prt_9')!.localId;
    expect(store.protocols.deleteDraft(alan)).toBe('queued');
    expect(onKrill()).toEqual([]);
    expect(names(store.protocols.list({ productId: KRILL, includeDeleted: true }).items)).toEqual([
      'Alan Turing',
    ]);
    store.protocols.forget(alan);
    expect(krillRows()).toBe(0);
  });

  it('pages with the keyset cursor of each sort, without skipping or repeating', () => {
    const store = memoryStore();
    const expected: string[] = [];
    for (let i = 0; i < 130; i++) {
      const krill = i % 3 === 0;
      draft(store, `P${String(i).padStart(3, '0')} Smith`, krill ? [KRILL, 1001] : [1001], i);
      if (krill) expected.push(`P${String(i).padStart(3, '0')} Smith`);
    }
    for (const sort of ['changed', 'name'] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = store.protocols.page({ productId: KRILL, sort, limit: 7, cursor });
        seen.push(...names(page.items));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(sort === 'name' ? expected : [...expected].reverse());
    }
  });

  it('never refuses a write for a draft it cannot read products from', () => {
    const store = memoryStore();
    const ada = draft(store, 'Ada Lovelace', [KRILL]);
    store.db.prepare("UPDATE protocols SET draft = '{not json' WHERE local_id = ?").run(ada);
    expect(store.protocols.countMatching({ productId: KRILL })).toBe(0);
  });
});

describe('recovery', () => {
  it('rebuilds the product index as the protocols of a damaged store are copied back', () => {
    const source = memoryStore();
    draft(source, 'Ada Lovelace', [KRILL, 1001]);
    draft(source, 'Alan Turing', [1001]);
    const target = memoryStore();
    salvageTables(source.db, target.db, ['protocols']);
    expect(names(target.protocols.list({ productId: KRILL }).items)).toEqual(['Ada Lovelace']);
    expect(target.protocols.countMatching({ productId: 1001 })).toBe(2);
  });
});

describe('migration 10 (protocol products)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'protocol-products-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes the products of the protocols a version-9 store already has', () => {
    const file = join(dir, 'v9.db');
    const v9 = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 9) });
    const insert = v9.prepare(
      `INSERT INTO protocols (local_id, customer_name, source_id, search_text, sort_name, sync_state,
         created_at, local_updated_at, draft)
       VALUES (?, ?, ?, ?, ?, 'pending', 1, 1, ?)`,
    );
    insert.run(
      'a',
      'Ada Lovelace',
      's1',
      'ada lovelace s1 ',
      'lovelace\u001fada',
      JSON.stringify(protocolRequest({}, { lineItems: [line(KRILL), line(1001)] })),
    );
    insert.run(
      'b',
      'Alan Turing',
      's2',
      'alan turing s2 ',
      'turing\u001falan',
      JSON.stringify(protocolRequest({}, { lineItems: [line(1001)] })),
    );
    insert.run(
      'c',
      'Bad Draft',
      's3',
      'bad draft s3 ',
      'draft\u001fbad',
      '{"lineItems": [{"productId": "x"}]}',
    );
    closeStore(v9);

    const store = createLocalStore(file, { key: TEST_KEY });
    try {
      expect(names(store.protocols.list({ productId: KRILL }).items)).toEqual(['Ada Lovelace']);
      expect(store.protocols.countMatching({ productId: 1001 })).toBe(2);
    } finally {
      store.close();
    }
  });
});
