import { describe, expect, it } from 'vitest';
import { ProtocolRequest } from '@shared/api';
import { StoreError } from '@main/db';
import { nameSortKey, planFtsSearch } from '@main/protocols/protocol-search';
import {
  appOrder,
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

type Store = ReturnType<typeof memoryStore>;

/** Local drafts for these "First Last" names, in creation order; returns their localIds. */
const draft = (store: Store, names: string[]) =>
  names.map((name, i) => {
    const [firstName, lastName] = name.split(' ') as [string, string];
    store.clock.advance(1000);
    return store.protocols.createDraft(
      protocolRequest({ firstName, lastName, sourceId: `src-${i}`, email: null }),
    ).localId;
  });

const names = (items: { customerName: string }[]) => items.map((p) => p.customerName);

/** Every page of a list, following nextCursor. */
function allPages(store: Store, query: Parameters<Store['protocols']['list']>[0]) {
  const seen: string[] = [];
  let cursor: string | null = null;
  const totals = new Set<number>();
  do {
    const page = store.protocols.list({ ...query, cursor });
    seen.push(...names(page.items));
    totals.add(page.total);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { seen, totals: [...totals] };
}

describe('protocol list: sort, total, in-doubt filter, matching ids', () => {
  const people = ['Zoe Smith', 'Al Smithson', 'Émile Abel', 'bob abel', 'Ann Smith', 'Ann Smith'];

  it("sorts by last name, then first name, folding case and diacritics, ties by seq; 'changed' last changed first", () => {
    const store = memoryStore();
    draft(store, people);
    expect(names(store.protocols.list({ sort: 'name' }).items)).toEqual([
      'bob abel',
      'Émile Abel',
      'Ann Smith',
      'Ann Smith',
      'Zoe Smith',
      'Al Smithson',
    ]);
    expect(names(store.protocols.list({}).items)).toEqual([...people].reverse());
  });

  it('pages with a keyset cursor per sort; the total counts every match on every page', () => {
    const store = memoryStore();
    const ids = draft(store, people);
    const byName = allPages(store, { sort: 'name', limit: 2 });
    expect(byName.seen).toEqual(names(store.protocols.list({ sort: 'name' }).items));
    expect(byName.totals).toEqual([6]);
    const byChange = allPages(store, { limit: 4 });
    expect(byChange.seen).toEqual([...people].reverse());
    expect(byChange.totals).toEqual([6]);
    // A search: every word matches; total is the matches, not the page.
    const smith = store.protocols.list({ search: 'smith', sort: 'name', limit: 1 });
    expect(names(smith.items)).toEqual(['Ann Smith']);
    expect(smith.total).toBe(4);
    expect(allPages(store, { search: 'smith ann', sort: 'name', limit: 1 }).seen).toEqual([
      'Ann Smith',
      'Ann Smith',
    ]);
    // A draft deleted before it was sent is gone, from the total too.
    store.protocols.deleteDraft(ids[0]!);
    expect(store.protocols.list({ search: 'smith' }).total).toBe(3);
    expect(store.protocols.list({ search: 'zz-nobody' })).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
    });
  });

  it('leaves out the protocols it is asked to hide (deleted on screen, their Undo offered)', () => {
    const store = memoryStore();
    const ids = draft(store, people);
    const hide = [ids[0]!, ids[3]!];
    const page = store.protocols.list({ sort: 'name', hide });
    expect(page.total).toBe(people.length - 2);
    expect(page.items.map((p) => p.localId)).not.toContain(ids[0]);
    expect(page.items.map((p) => p.localId)).not.toContain(ids[3]);
    expect(store.protocols.matchingIds({ hide })).toHaveLength(people.length - 2);
  });

  it('counts again for a next page when the store changed in between', () => {
    const store = memoryStore();
    draft(store, people);
    const first = store.protocols.list({ sort: 'name', limit: 2 });
    expect(first.total).toBe(6);
    expect(store.protocols.list({ sort: 'name', limit: 2, cursor: first.nextCursor }).total).toBe(
      6,
    );
    draft(store, ['Nia Newcomer']);
    expect(store.protocols.list({ sort: 'name', limit: 2, cursor: first.nextCursor }).total).toBe(
      7,
    );
  });

  it('sorts a broad search (hundreds of FTS candidates) by name, page after page', () => {
    const store = memoryStore();
    const lasts = ['Smithers', 'Smith', 'Smithson'];
    const protocols = Array.from({ length: 700 }, (_, i) =>
      serverProtocol(
        `prt_${i}`,
        '2025-03-01T09:00:00Z',
        protocolRequest({
          firstName: `F${(i * 7919) % 700}`,
          lastName: lasts[i % 3]!,
          sourceId: `s-${i}`,
          email: null,
        }),
      ),
    );
    store.protocols.upsertManyFromServer(protocols);
    // Every trigram of 'smith' is common here: the page walks the name order (a scan).
    expect(planFtsSearch(store.db, 'smith')).toMatchObject({ kind: 'scan' });
    const expected = protocols
      .map((p, seq) => ({
        key: nameSortKey(p.customer),
        seq,
        name: `${p.customer.firstName} ${p.customer.lastName}`,
      }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.seq - b.seq))
      .map((x) => x.name);
    const { seen, totals } = allPages(store, { search: 'smith', sort: 'name', limit: 50 });
    expect(seen).toEqual(expected);
    expect(totals).toEqual([700]);
    expect(allPages(store, { search: 'smithe', sort: 'name', limit: 50 }).seen).toEqual(
      expected.filter((n) => n.endsWith('Smithers')),
    );
  });

  it("'changed' is the last local change first: an edited old protocol comes first, everywhere", () => {
    const store = memoryStore();
    const ids = draft(store, people);
    store.clock.advance(1000);
    const edited = store.protocols.get(ids[0]!)!;
    store.protocols.updateDraft(ids[0]!, {
      ...ProtocolRequest.parse(edited.draft),
      customer: { ...edited.draft.customer, email: 'zoe@example.net' },
    });
    const expected = ['Zoe Smith', ...people.slice(1).reverse()];
    expect(names(store.protocols.list({}).items)).toEqual(expected);
    expect(allPages(store, { limit: 2 }).seen).toEqual(expected);
    const list = store.protocols.list({ limit: 1 });
    expect(list.items[0]!.localUpdatedAt).toBe(store.clock.now());
    expect(list.nextCursor).toMatch(/^changed:desc:\d+:\d+$/);
    // A search (FTS candidates), a filter, matchingIds and search() follow the same order.
    expect(names(store.protocols.list({ search: 'smith' }).items)).toEqual([
      'Zoe Smith',
      'Ann Smith',
      'Ann Smith',
      'Al Smithson',
    ]);
    expect(allPages(store, { search: 'smi', syncStates: ['pending'], limit: 1 }).seen).toEqual([
      'Zoe Smith',
      'Ann Smith',
      'Ann Smith',
      'Al Smithson',
    ]);
    expect(store.protocols.matchingIds({})[0]).toBe(ids[0]);
    expect(store.protocols.matchingIds({ search: 'smith' })[0]).toBe(ids[0]);
    expect(names(store.protocols.search('sm'))).toEqual(names(store.protocols.search('smith')));
    expect(store.protocols.search('smith')[0]!.localId).toBe(ids[0]);
    // The name sort does not move.
    expect(names(store.protocols.list({ sort: 'name' }).items)).toEqual([
      'bob abel',
      'Émile Abel',
      'Ann Smith',
      'Ann Smith',
      'Zoe Smith',
      'Al Smithson',
    ]);
  });

  it('pages by last change across equal timestamps without skipping or repeating (ties by seq, newest first)', () => {
    const store = memoryStore();
    // Runs of protocols written in the same millisecond, some edited later in one millisecond.
    const ids: string[] = [];
    for (let run = 0; run < 5; run++) {
      store.clock.advance(1000);
      for (let i = 0; i < 7; i++)
        ids.push(
          store.protocols.createDraft(
            protocolRequest({
              firstName: `R${run}n${i}`,
              lastName: 'Tied',
              sourceId: `t-${run}-${i}`,
              email: null,
            }),
          ).localId,
        );
    }
    store.clock.advance(1000);
    const edited = [ids[3]!, ids[10]!, ids[30]!];
    for (const id of edited) {
      const p = store.protocols.get(id)!;
      store.protocols.updateDraft(id, { ...ProtocolRequest.parse(p.draft), daysSupply: 60 });
    }
    const ranked = ids
      .map((id, i) => ({ id, i, at: store.protocols.get(id)!.localUpdatedAt }))
      .sort((a, b) => b.at - a.at || b.i - a.i)
      .map((r) => store.protocols.get(r.id)!.customerName);
    expect(ranked.slice(0, 3)).toEqual(['R4n2 Tied', 'R1n3 Tied', 'R0n3 Tied']);
    for (const query of [
      {},
      { search: 'tied' },
      { search: 'ti' },
      { syncStates: ['pending' as const] },
    ])
      for (const limit of [1, 3, 7, 8]) {
        const { seen, totals } = allPages(store, { ...query, limit });
        expect(seen, `${JSON.stringify(query)} limit ${limit}`).toEqual(ranked);
        expect(totals).toEqual([35]);
      }
    expect(store.protocols.matchingIds({ search: 'tied' }).map((id) => ids.indexOf(id))).toEqual(
      ranked.map((n) => ids.findIndex((id) => store.protocols.get(id)!.customerName === n)),
    );
  });

  it('refuses a cursor of the other sort', () => {
    const store = memoryStore();
    draft(store, people);
    const page = store.protocols.list({ sort: 'name', limit: 2 });
    expect(() => store.protocols.list({ cursor: page.nextCursor })).toThrow(StoreError);
    const changed = store.protocols.list({ limit: 2 });
    expect(() => store.protocols.list({ sort: 'name', cursor: changed.nextCursor })).toThrow(
      StoreError,
    );
    // The bare seq of the former 'changed' cursor is no place in the order any more.
    expect(() => store.protocols.list({ cursor: '12' })).toThrow(StoreError);
  });

  it("filters 'in-doubt' (a pending change whose job is in doubt) apart from 'pending'", () => {
    const store = memoryStore();
    const [a, b] = draft(store, ['Ada One', 'Bea Two', 'Cy Three']);
    const synced = mirrorProtocol(
      store,
      serverProtocol('prt_1', '2025-03-01T09:00:00Z', protocolRequest({ firstName: 'Dan' })),
    );
    const jobOf = (localId: string) => store.jobs.live(`protocol:${localId}`)!.id;
    store.db.prepare("UPDATE jobs SET state = 'in_doubt' WHERE id = ?").run(jobOf(a!));
    store.db.prepare("UPDATE jobs SET state = 'sending' WHERE id = ?").run(jobOf(b!));
    const of = (syncStates: ('pending' | 'synced' | 'conflict' | 'in-doubt')[]) =>
      store.protocols.list({ syncStates, sort: 'name' });
    expect(names(of(['in-doubt']).items)).toEqual(['Ada One']);
    expect(of(['in-doubt']).total).toBe(1);
    expect(of(['pending']).total).toBe(3);
    expect(names(of(['synced', 'in-doubt']).items).sort()).toEqual(['Ada One', 'Dan Lovelace']);
    expect(of([]).total).toBe(0);
    expect(store.protocols.matchingIds({ syncStates: ['in-doubt'] })).toEqual([a]);
    expect(store.protocols.matchingIds({ syncStates: ['synced'] })).toEqual([synced.localId]);
  });

  it('matchingIds: every match in list order, no paging', () => {
    const store = memoryStore();
    const many = Array.from({ length: 120 }, (_, i) => `P${i} Smith`);
    const ids = draft(store, [...many, 'Other Person']);
    expect(store.protocols.matchingIds({ search: 'smith' })).toEqual(ids.slice(0, 120).reverse());
    expect(store.protocols.matchingIds({ search: 'nobody-here' })).toEqual([]);
    store.protocols.deleteDraft(ids[0]!);
    expect(store.protocols.matchingIds({ search: 'smith' })).toHaveLength(119);
  });
});

describe('order queue: search, totals, counts per status, timeline', () => {
  const at = (minutes: number) =>
    new Date(Date.parse('2025-03-01T10:00:00Z') + minutes * 60_000).toISOString();
  const customer = (firstName: string, lastName: string, sourceId: string) => ({
    ...appOrder('x').customer,
    firstName,
    lastName,
    sourceId,
  });

  function seeded() {
    const store = memoryStore();
    store.orders.upsertMany(
      [
        appOrder('ord_A1', { customer: customer('Zoë', 'Ábel', 'PAT-1'), createdAt: at(1) }),
        appOrder('ord_B2', {
          customer: customer('Bob', 'Stone', 'PAT-2'),
          createdAt: at(2),
          status: 'SHIPPED',
        }),
        appOrder('ord_C3', {
          customer: customer('Zoe', 'Stone', 'PAT-3'),
          createdAt: at(3),
          status: 'CANCELLED',
        }),
      ],
      'pulled',
    );
    return store;
  }
  const ids = (orders: { id: string }[]) => orders.map((o) => o.id);

  it('searches words of the name, sourceId or order id, case and accents folded', () => {
    const store = seeded();
    expect(ids(store.orders.list({ search: 'zoe' }))).toEqual(['ord_C3', 'ord_A1']);
    expect(ids(store.orders.list({ search: 'ZOE stone' }))).toEqual(['ord_C3']);
    expect(ids(store.orders.list({ search: 'pat-2' }))).toEqual(['ord_B2']);
    expect(ids(store.orders.list({ search: 'ord_a' }))).toEqual(['ord_A1']);
    expect(ids(store.orders.list({ search: '%' }))).toEqual([]);
    expect(store.orders.count({ search: 'stone', statuses: ['SHIPPED'] })).toBe(1);
    expect(store.orders.count({ search: 'stone' })).toBe(2);
  });

  it('counts per status with every status present, for the search and dates', () => {
    const store = seeded();
    const counts = store.orders.countByStatus({ search: 'stone' });
    expect(Object.keys(counts).sort()).toEqual(
      [
        'NEW',
        'PROCESSING',
        'DISPENSING',
        'FILLED',
        'FULFILLED',
        'AWAITING_SHIPMENT',
        'SHIPPED',
        'DELIVERED',
        'CANCELLED',
      ].sort(),
    );
    expect(counts).toMatchObject({ SHIPPED: 1, CANCELLED: 1, NEW: 0 });
    expect(store.orders.countByStatus({ createdFrom: at(2) })).toMatchObject({
      NEW: 0,
      SHIPPED: 1,
      CANCELLED: 1,
    });
    expect(store.orders.countByStatus({ sourceId: 'PAT-1' })).toMatchObject({ NEW: 1 });
  });

  it('records each status the app saw, with the order row, oldest first', () => {
    const store = memoryStore();
    store.orders.insertCreated(appOrder('ord_1'));
    store.clock.advance(60_000);
    store.orders.upsert(appOrder('ord_1', { status: 'PROCESSING', updatedAt: at(1) }), {
      source: 'pulled',
    });
    store.clock.advance(60_000);
    // The same status read again, and an older coarse read that merging ignores: no new entry.
    store.orders.upsert(appOrder('ord_1', { status: 'PROCESSING', updatedAt: at(1) }), {
      source: 'pulled',
    });
    store.orders.upsert(appOrder('ord_1', { status: 'SHIPPED', updatedAt: at(5) }), {
      source: 'pulled',
    });
    const t0 = Date.parse('2025-03-01T10:00:00Z');
    expect(store.orders.timeline('ord_1')).toEqual([
      { status: 'NEW', previous: null, seenAt: t0 },
      { status: 'PROCESSING', previous: 'NEW', seenAt: t0 + 60_000 },
      { status: 'SHIPPED', previous: 'PROCESSING', seenAt: t0 + 120_000 },
    ]);
    expect(store.orders.timeline('ord_unknown')).toEqual([]);
  });

  it("writes the timeline in the order row's transaction: a failed upsert leaves neither", () => {
    const store = memoryStore();
    store.orders.insertCreated(appOrder('ord_1'));
    expect(() =>
      store.transaction(() => {
        store.orders.upsert(appOrder('ord_1', { status: 'PROCESSING', updatedAt: at(1) }), {
          source: 'pulled',
        });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.orders.get('ord_1')?.status).toBe('NEW');
    expect(store.orders.timeline('ord_1').map((c) => c.status)).toEqual(['NEW']);
  });
});
