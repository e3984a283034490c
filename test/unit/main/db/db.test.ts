import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolJobData } from '@main/protocols/change-queue';
import { OrderJobData } from '@main/orders/order-job';
import { closeStore, openStore, SCHEMA_VERSION, schemaVersion, StoreError } from '@main/db';
import { createLocalStore } from '@main/stores';
import { MIGRATIONS } from '@main/db/migrations';
import { appOrder, manualClock, orderRequest, protocolRequest } from '@test/support/store-fixtures';
import { openTestDb, TEST_KEY } from '@test/support/store-key';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tables = (db: Database.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);

describe('openStore', () => {
  it('creates every table on a fresh file, with WAL, NORMAL sync, foreign keys, a busy timeout and a 256 MB page cache', () => {
    const db = openStore(join(dir, 'a.db'), { key: TEST_KEY });
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'batches',
        'connections',
        'jobs',
        'orders',
        'products',
        'protocols',
        'protocols_fts',
        'settings',
        'shipping_methods',
        'sync_state',
      ]),
    );
    expect(tables(db)).not.toContain('outbox');
    expect(tables(db)).not.toContain('batch_items');
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('cache_size', { simple: true })).toBe(-256 * 1024);
    closeStore(db);
  });

  it('reopens an up-to-date file without migrating again, keeping its data', () => {
    const file = join(dir, 'b.db');
    const first = createLocalStore(file, { key: TEST_KEY });
    first.syncState.set('orders.lastPull', 42);
    first.close();
    const again = createLocalStore(file, { key: TEST_KEY });
    expect(schemaVersion(again.db)).toBe(SCHEMA_VERSION);
    expect(again.syncState.get('orders.lastPull', z.int())).toBe(42);
    again.close();
  });

  it('refuses a database from a newer version, with a clear error, and leaves it untouched', () => {
    const file = join(dir, 'future.db');
    const raw = openTestDb(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    let error: unknown;
    try {
      openStore(file, { key: TEST_KEY });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('future-schema');
    expect((error as Error).message).toMatch(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}.*only up to ${SCHEMA_VERSION}`),
    );
    const check = openTestDb(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    expect(tables(check)).toEqual([]);
    check.close();
  });

  it('applies all pending migrations in one transaction: a failing one leaves nothing behind', () => {
    const file = join(dir, 'c.db');
    expect(() =>
      openStore(file, {
        key: TEST_KEY,
        migrations: [
          'CREATE TABLE one (x INTEGER);',
          'CREATE TABLE two (x INTEGER); SELECT * FROM missing;',
        ],
      }),
    ).toThrow(/missing/);
    const check = openTestDb(file);
    expect(check.pragma('user_version', { simple: true })).toBe(0);
    expect(tables(check)).toEqual([]);
    check.close();
  });

  it('applies only the versions a database lacks', () => {
    const file = join(dir, 'd.db');
    const v1 = openStore(file, {
      key: TEST_KEY,
      migrations: ['CREATE TABLE one (x INTEGER); INSERT INTO one VALUES (1);'],
    });
    closeStore(v1);
    const v2 = openStore(file, {
      key: TEST_KEY,
      migrations: [
        'CREATE TABLE one (x INTEGER); INSERT INTO one VALUES (1);',
        'ALTER TABLE one ADD COLUMN y INTEGER DEFAULT 7;',
      ],
    });
    expect(schemaVersion(v2)).toBe(2);
    expect(v2.prepare('SELECT x, y FROM one').all()).toEqual([{ x: 1, y: 7 }]);
    closeStore(v2);
  });

  it('works in memory, without WAL', () => {
    const db = openStore(':memory:');
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    closeStore(db);
    closeStore(db); // closing twice is harmless
  });

  it('never has a column for a secret', () => {
    const db = openStore(':memory:');
    for (const table of tables(db)) {
      const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
      for (const c of columns) expect(c).not.toMatch(/secret|token|password/i);
    }
    closeStore(db);
  });
});

describe('migration 2: the outbox and the batch items become jobs', () => {
  const T1 = '2025-02-01T09:00:00Z';
  const sent = protocolRequest({ lastName: 'Sent' });
  const issues = [{ loc: ['body', 'lineItems', 0], type: 'invalid', msg: 'DISCONTINUED' }];

  /** A database at schema version 1 with outbox entries, batch items and their sync_state keys. */
  function version1(file: string): void {
    const db = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 1) });
    expect(schemaVersion(db)).toBe(1);
    const protocol = db.prepare(
      `INSERT INTO protocols (local_id, server_id, customer_name, source_id, search_text, sync_state,
         created_at, local_updated_at, draft, base_updated_at)
       VALUES (?, ?, 'Ada Lovelace', 'patient-0001', 'ada lovelace patient-0001', ?, 1, 1, ?, ?)`,
    );
    const outbox = db.prepare(
      `INSERT INTO outbox (seq, protocol_local_id, op, base_updated_at, state, attempts, last_error,
         sent_at, sent_rev, next_attempt_at, created_at, done_at)
       VALUES (@seq, @local, @op, @base, @state, @attempts, @error, @sentAt, @sentRev, @next, @seq, NULL)`,
    );
    const entry = {
      base: T1,
      attempts: 1,
      error: null,
      sentAt: null,
      sentRev: null,
      next: null,
    };
    const draft = JSON.stringify(protocolRequest());
    for (const [local, server, state] of [
      ['p-queued', null, 'pending'],
      ['p-flight', 'prt_f', 'pending'],
      ['p-doubt', 'prt_d', 'pending'],
      ['p-conflict', 'prt_c', 'conflict'],
      ['p-refused', null, 'pending'],
      ['p-done', 'prt_x', 'synced'],
    ] as const) {
      protocol.run(local, server, state, draft, server ? T1 : null);
    }
    outbox.run({ ...entry, seq: 1, local: 'p-queued', op: 'create', base: null, state: 'done' });
    outbox.run({
      ...entry,
      seq: 2,
      local: 'p-queued',
      op: 'create',
      base: null,
      state: 'pending',
      error: '503 Service Unavailable',
      next: 9_000,
    });
    outbox.run({
      ...entry,
      seq: 3,
      local: 'p-flight',
      op: 'update',
      state: 'pending',
      attempts: 2,
      sentAt: 5_000,
      sentRev: 4,
    });
    outbox.run({
      ...entry,
      seq: 4,
      local: 'p-doubt',
      op: 'delete',
      state: 'in_doubt',
      sentAt: 6_000,
      sentRev: 1,
      error: 'socket hang up',
    });
    outbox.run({
      ...entry,
      seq: 5,
      local: 'p-conflict',
      op: 'update',
      state: 'blocked',
      error: 'conflict: edited-on-server',
    });
    outbox.run({
      ...entry,
      seq: 6,
      local: 'p-refused',
      op: 'create',
      base: null,
      state: 'blocked',
      error: 'lineItems.0.productId: product 1001 is DISCONTINUED',
    });
    outbox.run({ ...entry, seq: 7, local: 'p-done', op: 'update', state: 'done' });
    const syncState = db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?)');
    syncState.run('outbox.sent.3', JSON.stringify(sent));
    syncState.run('outbox.sent.1', JSON.stringify(protocolRequest())); // a leftover
    syncState.run('protocols.lastFullPull', '123');

    db.prepare(
      "INSERT INTO batches (id, created_at, state, concurrency, total) VALUES ('b1', 10, 'running', 2, 4)",
    ).run();
    const item = db.prepare(
      `INSERT INTO batch_items (batch_id, seq, protocol_local_id, request, state, order_id, error,
         attempts, sent_at, next_attempt_at, updated_at)
       VALUES ('b1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const request = (i: number) => JSON.stringify(orderRequest(`s-${i}`));
    item.run(0, 'p-a', request(0), 'queued', null, null, 0, null, 7_000, 11);
    item.run(1, 'p-b', request(1), 'sending', null, null, 1, 8_000, null, 12);
    item.run(2, 'p-c', request(2), 'created', 'ord_2', null, 1, 8_100, null, 13);
    const error = JSON.stringify({ kind: 'validation', issues });
    item.run(3, 'p-d', request(3), 'rejected', null, error, 1, 8_200, null, 14);
    closeStore(db);
  }

  it('opens (through version 2) with a job for each live entry and each item, and neither table left', () => {
    const file = join(dir, 'v1.db');
    version1(file);
    const store = createLocalStore(file, { key: TEST_KEY, clock: manualClock() });
    expect(schemaVersion(store.db)).toBe(SCHEMA_VERSION);
    expect(tables(store.db)).not.toContain('outbox');
    expect(tables(store.db)).not.toContain('batch_items');
    expect(
      store.db.prepare('SELECT key FROM sync_state ORDER BY key').all() as { key: string }[],
    ).toEqual([{ key: 'protocols.lastFullPull' }]);

    const protocolJobs = store.db
      .prepare("SELECT * FROM jobs WHERE kind = 'protocol' ORDER BY id")
      .all()
      .map((row) => store.jobs.get((row as { id: number }).id)!);
    const change = (localId: string, sentRev: number | null, extra: object = {}) => ({
      localId,
      baseUpdatedAt: T1,
      sentRev,
      sent: null,
      ...extra,
    });
    expect(
      protocolJobs.map((j) => [
        j.queueKey,
        j.state,
        j.data,
        j.attempts,
        j.sentAt,
        j.nextAttemptAt,
        j.error,
      ]),
    ).toEqual([
      [
        'protocol:p-queued',
        'queued',
        change('p-queued', null, { op: 'create', baseUpdatedAt: null }),
        1,
        null,
        9_000,
        { kind: 'transport', message: '503 Service Unavailable' },
      ],
      [
        'protocol:p-flight',
        'in_doubt',
        change('p-flight', 4, { op: 'update', sent }),
        2,
        5_000,
        null,
        null,
      ],
      [
        'protocol:p-doubt',
        'in_doubt',
        change('p-doubt', 1, { op: 'delete' }),
        1,
        6_000,
        null,
        { kind: 'transport', message: 'socket hang up' },
      ],
      [
        'protocol:p-conflict',
        'rejected',
        change('p-conflict', null, { op: 'update' }),
        1,
        null,
        null,
        { kind: 'conflict', conflict: 'edited-on-server' },
      ],
      [
        'protocol:p-refused',
        'rejected',
        change('p-refused', null, { op: 'create', baseUpdatedAt: null }),
        1,
        null,
        null,
        { kind: 'transport', message: 'lineItems.0.productId: product 1001 is DISCONTINUED' },
      ],
    ]);
    for (const job of protocolJobs) expect(ProtocolJobData.safeParse(job.data).success).toBe(true);
    // the protocols read their change, and take edits, as before
    expect(store.protocols.get('p-queued')?.change).toMatchObject({
      op: 'create',
      state: 'queued',
    });
    expect(store.protocols.get('p-done')?.change).toBeNull();
    store.protocols.updateDraft('p-refused', protocolRequest({ lastName: 'Fixed' }));
    expect(store.protocols.get('p-refused')?.change).toMatchObject({
      op: 'create',
      state: 'queued',
      error: null,
    });

    const items = store.batches.items('b1');
    expect(
      items.map((i) => [
        i.seq,
        i.protocolLocalId,
        i.state,
        i.orderId,
        i.error,
        i.attempts,
        i.sentAt,
      ]),
    ).toEqual([
      [0, 'p-a', 'queued', null, null, 0, null],
      [1, 'p-b', 'in_doubt', null, null, 1, 8_000],
      [2, 'p-c', 'done', 'ord_2', null, 1, 8_100],
      [3, 'p-d', 'rejected', null, { kind: 'validation', issues }, 1, 8_200],
    ]);
    expect(items[1]!.request).toEqual(orderRequest('s-1'));
    const orderJobs = store.jobs.ofBatch('b1');
    expect(orderJobs.map((j) => [j.kind, j.batchSeq, j.nextAttemptAt])).toEqual([
      ['order', 0, 7_000],
      ['order', 1, null],
      ['order', 2, null],
      ['order', 3, null],
    ]);
    for (const job of orderJobs) expect(OrderJobData.safeParse(job.data).success).toBe(true);
    expect(store.batches.progress('b1')).toMatchObject({ total: 4, inDoubt: 1, created: 1 });
    store.close();
  });
});

describe('migration 3: sort keys, order search text, status timeline', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-m3-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fills the derived columns with the app normalisation and seeds each order at its updatedAt', () => {
    const file = join(dir, 'v2.db');
    const db = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 2) });
    const draft = protocolRequest({ firstName: 'Zoë', lastName: "D'Ábel" });
    db.prepare(
      `INSERT INTO protocols (local_id, customer_name, source_id, search_text, sync_state, created_at,
         local_updated_at, draft) VALUES ('p1', 'Zoë D''Ábel', 'patient-0001', 'x', 'synced', 1, 1, ?)`,
    ).run(JSON.stringify(draft));
    const order = appOrder('ord_9', {
      status: 'SHIPPED',
      updatedAt: '2025-03-02T00:00:00Z',
      customer: { ...appOrder('x').customer, firstName: 'Zoë', sourceId: 'PAT-9' },
    });
    db.prepare(
      `INSERT INTO orders (id, status, status_precision, customer_source_id, customer_name, created_at,
         updated_at, source, local_updated_at, body) VALUES ('ord_9', 'SHIPPED', 'exact', 'PAT-9', 'Zoë Lovelace', 1, ?, 'pulled', 1, ?)`,
    ).run(Date.parse(order.updatedAt), JSON.stringify(order));
    closeStore(db);

    const store = createLocalStore(file, { key: TEST_KEY, clock: manualClock() });
    expect(schemaVersion(store.db)).toBe(SCHEMA_VERSION);
    expect(store.db.prepare('SELECT sort_name FROM protocols').get()).toEqual({
      sort_name: "d'abel\u001fzoe",
    });
    expect(store.orders.list({ search: 'zoe pat-9 ORD_9' }).map((o) => o.id)).toEqual(['ord_9']);
    expect(store.orders.timeline('ord_9')).toEqual([
      { status: 'SHIPPED', previous: null, seenAt: Date.parse('2025-03-02T00:00:00Z') },
    ]);
    store.close();
  });
});

describe('migration 4: the list indexes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-m4-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const indexes = (db: Database.Database) =>
    (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('protocols_list', 'orders_queue', 'protocols_scan')",
        )
        .all() as {
        name: string;
      }[]
    )
      .map((r) => r.name)
      .sort();

  it('applies to a version-3 store whether or not it already had protocols_list', () => {
    for (const interim of [false, true]) {
      const file = join(dir, `v3-${interim}.db`);
      const db = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 3) });
      if (interim) {
        // As an interim build's version 3 left it.
        db.exec('DROP INDEX protocols_scan');
        db.exec(
          'CREATE INDEX protocols_list ON protocols (seq, deleted, sync_state, sort_name, search_text)',
        );
      }
      closeStore(db);
      const store = createLocalStore(file, { key: TEST_KEY, clock: manualClock() });
      expect(schemaVersion(store.db)).toBe(SCHEMA_VERSION);
      expect(indexes(store.db)).toEqual(['orders_queue', 'protocols_list']);
      store.close();
    }
  });
});

describe('migration 5: the index of the list by last change', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-m5-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const columns = (db: Database.Database, index: string) =>
    (db.prepare(`PRAGMA index_info(${index})`).all() as { name: string }[]).map((c) => c.name);

  it('a version-4 store gets protocols_by_change, and local_updated_at in protocols_list', () => {
    const file = join(dir, 'v4.db');
    const db = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 4) });
    expect(columns(db, 'protocols_list')).not.toContain('local_updated_at');
    closeStore(db);
    const store = createLocalStore(file, { key: TEST_KEY, clock: manualClock() });
    expect(schemaVersion(store.db)).toBe(SCHEMA_VERSION);
    // Version 6: the name order's index carries the searched columns too.
    expect(columns(store.db, 'protocols_by_name')).toEqual([
      'sort_name',
      'seq',
      'deleted',
      'sync_state',
      'search_text',
    ]);
    expect(columns(store.db, 'protocols_by_change')).toEqual([
      'local_updated_at',
      'seq',
      'deleted',
      'sync_state',
      'search_text',
    ]);
    expect(columns(store.db, 'protocols_list')).toContain('local_updated_at');
    // A page of the whole list, and the next one, walk the index: no sort of every row.
    const plan = (sql: string) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    const page = `SELECT seq FROM protocols p WHERE p.deleted = 0 AND p.sync_state IN ('pending')
      AND (p.local_updated_at, p.seq) < (5, 3) ORDER BY p.local_updated_at DESC, p.seq DESC LIMIT 50`;
    expect(plan(page)).toContain('COVERING INDEX protocols_by_change');
    expect(plan(page)).not.toContain('TEMP B-TREE');
    // A search of terms too short for trigrams is re-checked on the index too.
    const short = `SELECT seq FROM protocols p WHERE p.deleted = 0 AND p.search_text LIKE '%zq%'
      ORDER BY p.local_updated_at DESC, p.seq DESC LIMIT 50`;
    expect(plan(short)).toContain('COVERING INDEX protocols_by_change');
    expect(plan(short)).not.toContain('TEMP B-TREE');
    store.close();
  });
});

describe('migration 8 (possible duplicates)', () => {
  it('counts the batches done before it as looked at when they finished; the others are not', () => {
    const file = join(dir, 'v7.db');
    const v7 = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 7) });
    v7.prepare(
      `INSERT INTO batches (id, created_at, state, concurrency, total, finished_at)
       VALUES ('done', 1, 'done', 4, 1, 5), ('running', 2, 'running', 4, 1, NULL)`,
    ).run();
    closeStore(v7);
    const v8 = openStore(file, { key: TEST_KEY });
    expect(
      v8.prepare('SELECT id, duplicates_checked_at AS at FROM batches ORDER BY id').all(),
    ).toEqual([
      { id: 'done', at: 5 },
      { id: 'running', at: null },
    ]);
    expect(tables(v8)).toContain('possible_duplicates');
    closeStore(v8);
  });
});
