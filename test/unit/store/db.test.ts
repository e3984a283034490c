import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  closeStore,
  createLocalStore,
  openStore,
  SCHEMA_VERSION,
  schemaVersion,
  StoreError,
} from '../../../src/main/store';

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
  it('creates every table on a fresh file, with WAL, NORMAL sync, foreign keys and a busy timeout', () => {
    const db = openStore(join(dir, 'a.db'));
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'batch_items',
        'batches',
        'connections',
        'orders',
        'outbox',
        'products',
        'protocols',
        'protocols_fts',
        'settings',
        'shipping_methods',
        'sync_state',
      ]),
    );
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    closeStore(db);
  });

  it('reopens an up-to-date file without migrating again, keeping its data', () => {
    const file = join(dir, 'b.db');
    const first = createLocalStore(file);
    first.settings.set('ui.theme', 'dark');
    first.close();
    const again = createLocalStore(file);
    expect(schemaVersion(again.db)).toBe(SCHEMA_VERSION);
    expect(again.settings.get('ui.theme', z.string(), 'light')).toBe('dark');
    again.close();
  });

  it('refuses a database from a newer version, with a clear error, and leaves it untouched', () => {
    const file = join(dir, 'future.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    let error: unknown;
    try {
      openStore(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('future-schema');
    expect((error as Error).message).toMatch(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}.*only up to ${SCHEMA_VERSION}`),
    );
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    expect(tables(check)).toEqual([]);
    check.close();
  });

  it('applies all pending migrations in one transaction: a failing one leaves nothing behind', () => {
    const file = join(dir, 'c.db');
    expect(() =>
      openStore(file, {
        migrations: [
          'CREATE TABLE one (x INTEGER);',
          'CREATE TABLE two (x INTEGER); SELECT * FROM missing;',
        ],
      }),
    ).toThrow(/missing/);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(0);
    expect(tables(check)).toEqual([]);
    check.close();
  });

  it('applies only the versions a database lacks', () => {
    const file = join(dir, 'd.db');
    const v1 = openStore(file, {
      migrations: ['CREATE TABLE one (x INTEGER); INSERT INTO one VALUES (1);'],
    });
    closeStore(v1);
    const v2 = openStore(file, {
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
