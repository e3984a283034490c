import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeSubject } from '@shared/core-events';
import type { Db } from '@main/db';
import { createLocalStore, openAppStore } from '@main/stores';
import { SUBJECT_OF_TABLE, writtenTable } from '@main/db/store-changes';
import { manualClock, protocolRequest } from '@test/support/store-fixtures';
import { TEST_KEY } from '@test/support/store-key';

/** The tables of a store's schema, less SQLite's own and the search index's shadow tables. */
const tablesOf = (db: Db): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .filter(
      (name) =>
        !name.startsWith('sqlite_') &&
        !name.startsWith('protocols_fts') &&
        !name.startsWith('order_search_fts_'),
    );

/** Waits for the microtask in which the store tells of the writes before it. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the changed subjects of the stores', () => {
  it('every table of both stores has a subject', () => {
    const store = createLocalStore(':memory:');
    const dir = mkdtempSync(join(tmpdir(), 'order-desk-changes-'));
    dirs.push(dir);
    const app = openAppStore(dir, { key: TEST_KEY });
    try {
      const tables = [...tablesOf(store.db), ...tablesOf(app.db)];
      expect(tables.length).toBeGreaterThan(10);
      expect(tables.filter((t) => !SUBJECT_OF_TABLE[t])).toEqual([]);
    } finally {
      store.close();
      app.close();
    }
  });

  it('reads the table a write names, and none for a read', () => {
    expect(writtenTable('INSERT INTO protocols (a) VALUES (?)')).toBe('protocols');
    expect(writtenTable('  insert or replace into settings VALUES (?, ?)')).toBe('settings');
    expect(writtenTable('REPLACE INTO "orders" VALUES (?)')).toBe('orders');
    expect(writtenTable('UPDATE OR IGNORE jobs SET state = ?')).toBe('jobs');
    expect(writtenTable('DELETE FROM batch_items WHERE batch_id = ?')).toBe('batch_items');
    expect(writtenTable('SELECT * FROM protocols')).toBeNull();
  });

  it('tells once, after a transaction, every subject its writes changed', async () => {
    const heard: ChangeSubject[][] = [];
    const store = createLocalStore(':memory:', {
      clock: manualClock(),
      changes: (subjects) => heard.push([...subjects].sort()),
    });
    try {
      store.protocols.list({}); // a read tells nothing
      await settled();
      expect(heard).toEqual([]);

      store.protocols.createDraft(protocolRequest());
      await settled();
      // A draft is a protocol row and the job that sends it, in one transaction.
      expect(heard).toEqual([['jobs', 'protocols']]);
    } finally {
      store.close();
    }
  });

  it('tells nothing of a write that changed no row', async () => {
    const heard: ChangeSubject[][] = [];
    const store = createLocalStore(':memory:', {
      clock: manualClock(),
      changes: (subjects) => heard.push([...subjects].sort()),
    });
    try {
      const db = store.db;
      db.prepare("UPDATE batches SET state = 'done' WHERE id = ?").run('no-such-batch');
      db.prepare('DELETE FROM orders WHERE id = ? RETURNING id').all('no-such-order');
      db.prepare('DELETE FROM jobs WHERE id = ? RETURNING id').get(-1);
      expect(store.batches.finishIfComplete('no-such-batch')).toBe(false);
      await settled();
      expect(heard).toEqual([]);

      db.prepare("INSERT INTO settings (key, value) VALUES ('k', '1') RETURNING key").get();
      await settled();
      expect(heard).toEqual([['settings']]);
    } finally {
      store.close();
    }
  });
});
