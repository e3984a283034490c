import { beforeAll, describe, expect, it } from 'vitest';
import { ProtocolRequest } from '@shared/api';
import { normalizeForSearch, searchTextOf } from '@main/protocols/protocol-search';
import { planFtsSearch, planLikeSearch, searchSeqs } from '@main/protocols/protocol-search';
import {
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

const T1 = '2025-02-01T09:00:00Z';

function seed(store: ReturnType<typeof memoryStore>) {
  const add = (firstName: string, lastName: string, sourceId: string, email: string | null) =>
    store.protocols.createDraft(protocolRequest({ firstName, lastName, sourceId, email })).localId;
  return {
    ada: add('Ada', 'Lovelace', 'PAT-0001', 'ada.lovelace@example.com'),
    jose: add('José', 'Núñez', 'PAT-0002', 'jnunez@clinic.org'),
    grace: add('Grace', 'Hopper', 'MRN-77341', null),
    alan: add('Alan', 'Turing', 'PAT-0003', 'alan@bletchley.uk'),
  };
}

describe('protocol search', () => {
  it('finds by part of the name, sourceId or email, case- and accent-insensitively, newest first', () => {
    const store = memoryStore();
    const id = seed(store);
    const ids = (q: string) => store.protocols.search(q).map((p) => p.localId);
    expect(ids('love')).toEqual([id.ada]); // part of the last name
    expect(ids('LOVELACE')).toEqual([id.ada]);
    expect(ids('lace ')).toEqual([id.ada]);
    expect(ids('ace')).toEqual([id.grace, id.ada]);
    expect(ids('nunez')).toEqual([id.jose]); // Núñez
    expect(ids('NÚÑ')).toEqual([id.jose]);
    expect(ids('josé')).toEqual([id.jose]);
    expect(ids('77341')).toEqual([id.grace]); // part of the sourceId
    expect(ids('MRN-77341')).toEqual([id.grace]); // the whole sourceId
    expect(ids('pat-')).toEqual([id.alan, id.jose, id.ada]); // newest first
    expect(ids('@clinic')).toEqual([id.jose]); // email fragment
    expect(ids('bletchley.uk')).toEqual([id.alan]);
    expect(ids('alan turing')).toEqual([id.alan]); // every word must match
    expect(ids('turing alan')).toEqual([id.alan]);
    expect(ids('ada hopper')).toEqual([]);
    expect(ids('zzqx')).toEqual([]);
    expect(ids('100%')).toEqual([]);
    expect(ids('a_')).toEqual([]); // LIKE wildcards are literal
  });

  it('matches terms shorter than three characters as substrings too', () => {
    const store = memoryStore();
    const id = seed(store);
    const ids = (q: string) => store.protocols.search(q).map((p) => p.localId);
    expect(ids('ho')).toEqual([id.grace]);
    expect(ids('tu')).toEqual([id.alan]);
    expect(ids('gr ho')).toEqual([id.grace]);
    expect(ids('q')).toEqual([]);
    expect(ids('love ad')).toEqual([id.ada]);
    expect(ids('  ')).toHaveLength(4); // an empty query lists all
  });

  it('follows edits and deletes, and leaves out protocols deleted locally', () => {
    const store = memoryStore();
    const id = seed(store);
    store.protocols.updateDraft(
      id.ada,
      protocolRequest({ firstName: 'Augusta', lastName: 'King', sourceId: 'PAT-0001' }),
    );
    expect(store.protocols.search('lovelace')).toEqual([]);
    expect(store.protocols.search('augusta').map((p) => p.localId)).toEqual([id.ada]);
    store.protocols.deleteDraft(id.alan); // never pushed: gone
    expect(store.protocols.search('turing')).toEqual([]);
    const s = mirrorProtocol(
      store,
      serverProtocol('prt_x', T1, protocolRequest({ lastName: 'Serverside' })),
    ).localId;
    store.protocols.deleteDraft(s); // delete pending push: hidden
    expect(store.protocols.search('serverside')).toEqual([]);
    expect(
      store.protocols
        .list({ search: 'serverside', includeDeleted: true })
        .items.map((p) => p.localId),
    ).toEqual([s]);
  });

  it('pages with a cursor, and filters by sync state', () => {
    const store = memoryStore();
    const created = Array.from(
      { length: 7 },
      (_, i) =>
        store.protocols.createDraft(protocolRequest({ lastName: `Smith${i}`, sourceId: `S-${i}` }))
          .localId,
    );
    const synced = mirrorProtocol(
      store,
      serverProtocol('prt_s', T1, protocolRequest({ lastName: 'Smithson' })),
    ).localId;
    const first = store.protocols.list({ search: 'smith', limit: 3 });
    expect(first.items.map((p) => p.localId)).toEqual([synced, created[6], created[5]]);
    const second = store.protocols.list({ search: 'smith', limit: 3, cursor: first.nextCursor });
    expect(second.items.map((p) => p.localId)).toEqual([created[4], created[3], created[2]]);
    const third = store.protocols.list({ search: 'smith', limit: 3, cursor: second.nextCursor });
    expect(third.items.map((p) => p.localId)).toEqual([created[1], created[0]]);
    expect(third.nextCursor).toBeNull();
    expect(store.protocols.list({ syncStates: ['synced'] }).items.map((p) => p.localId)).toEqual([
      synced,
    ]);
    expect(store.protocols.list({ limit: 2 }).items).toHaveLength(2);
    expect(() => store.protocols.list({ cursor: 'nope' })).toThrow(/cursor/);
  });

  it("summaries carry the columns and the protocol's pending change", () => {
    const store = memoryStore();
    const id = seed(store);
    const [summary] = store.protocols.search('PAT-0001');
    expect(summary).toMatchObject({
      localId: id.ada,
      serverId: null,
      customerName: 'Ada Lovelace',
      sourceId: 'PAT-0001',
      email: 'ada.lovelace@example.com',
      syncState: 'pending',
      deleted: false,
      change: { op: 'create', state: 'queued', attempts: 0, error: null },
    });
  });

  it('normalises the searched text', () => {
    expect(normalizeForSearch('  José   NÚÑEZ ')).toBe('jose nunez');
    expect(
      searchTextOf({ firstName: 'Zoë', lastName: "O'Brien", sourceId: 'X-1', email: null }),
    ).toBe("zoe o'brien x-1 ");
  });
});

describe('the trigram plan finds exactly what a substring filter finds', () => {
  const store = memoryStore();
  const texts = new Map<number, string>();
  /** Each protocol's local_updated_at: runs share a millisecond, so ties are broken by seq. */
  const changedAt = new Map<number, number>();
  let random = 42;
  const next = () => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random / 2147483648;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const first = ['Ada', 'José', 'Zoë', 'Liam', 'Mary', 'Chen', 'Aisha', 'Olga', 'Björn', 'Ann'];
  const last = [
    'Smith',
    'Núñez',
    "O'Brien",
    'Müller',
    'Lee',
    'Smithson',
    'Nakamura',
    'Okafor',
    'Lopez',
    'Annan',
  ];

  beforeAll(() => {
    for (let i = 0; i < 400; i++) {
      if (next() < 0.3) store.clock.advance(1 + Math.floor(next() * 5));
      const f = pick(first);
      const l = pick(last);
      const sourceId = `${pick(['PAT-', 'MRN', 'c_', ''])}${Math.floor(next() * 100000)}`;
      const email =
        next() < 0.2
          ? null
          : `${f}.${l}${i}@${pick(['gmail.com', 'clinic.org', 'example.net'])}`
              .normalize('NFKD')
              .replace(/[^ -~]|'/g, '');
      const p = store.protocols.createDraft(
        protocolRequest({ firstName: f, lastName: l, sourceId, email }),
      );
      const seq = (
        store.db.prepare('SELECT seq FROM protocols WHERE local_id = ?').get(p.localId) as {
          seq: number;
        }
      ).seq;
      texts.set(seq, searchTextOf({ firstName: f, lastName: l, sourceId, email }));
      changedAt.set(seq, store.clock.now());
    }
    // Older protocols edited later move ahead of newer ones in the 'changed' order.
    for (const [seq] of [...texts].filter(() => next() < 0.1)) {
      store.clock.advance(Math.floor(next() * 2));
      const { local_id: localId } = store.db
        .prepare('SELECT local_id FROM protocols WHERE seq = ?')
        .get(seq) as { local_id: string };
      const p = store.protocols.get(localId)!;
      store.protocols.updateDraft(localId, { ...ProtocolRequest.parse(p.draft), daysSupply: 90 });
      changedAt.set(seq, store.clock.now());
    }
  });

  it('on 600 queries made of pieces of the data and of noise', () => {
    const all = [...texts.values()];
    const queries: string[] = [];
    for (let i = 0; i < 600; i++) {
      const t = pick(all);
      const start = Math.floor(next() * t.length);
      const piece = t.slice(start, start + 1 + Math.floor(next() * 8)).trim();
      const noise = next()
        .toString(36)
        .slice(2, 2 + Math.ceil(next() * 5));
      queries.push(
        pick([piece, piece.toUpperCase(), `${piece} ${pick(all).slice(0, 3)}`, noise, `${piece}x`]),
      );
    }
    for (const q of queries) {
      const terms = normalizeForSearch(q).split(' ').filter(Boolean);
      const expected = [...texts.entries()]
        .filter(([, text]) => terms.every((term) => text.includes(term)))
        .map(([seq]) => seq)
        .sort((a, b) => changedAt.get(b)! - changedAt.get(a)! || b - a);
      const page = { where: ['p.deleted = 0'], params: [], limit: 1000 };
      expect(searchSeqs(store.db, planFtsSearch(store.db, q), page), q).toEqual(expected);
      expect(searchSeqs(store.db, planLikeSearch(q), page), q).toEqual(expected);
    }
  });
});

describe('common trigrams', () => {
  it('a term made only of trigrams in more than PROBE_CAP rows, and a rare one among them', () => {
    const store = memoryStore();
    const protocols = Array.from({ length: 700 }, (_, i) =>
      serverProtocol(
        `prt_${i}`,
        T1,
        protocolRequest({
          sourceId: `PAT-${String(i).padStart(5, '0')}`,
          lastName: i % 2 ? 'Smith' : 'Jones',
        }),
      ),
    );
    store.protocols.upsertManyFromServer(protocols);
    expect(store.protocols.count()).toBe(700);
    const page = store.protocols.list({ search: 'pat- smith', limit: 500 });
    expect(page.items).toHaveLength(350);
    expect(page.items.every((p) => p.customerName === 'Ada Smith')).toBe(true);
    expect(store.protocols.search('PAT-00421').map((p) => p.sourceId)).toEqual(['PAT-00421']);
    expect(store.protocols.search('PAT-0042').map((p) => p.sourceId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `PAT-${String(429 - i).padStart(5, '0')}`),
    );
    expect(store.protocols.search('PAT-99999')).toEqual([]);
  });
});
