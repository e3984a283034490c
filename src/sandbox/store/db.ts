import Database from 'better-sqlite3-multiple-ciphers';
import { cipherPragmas, type StoreKey } from '@shared/store-cipher';

/**
 * The sandbox's SQLite database: one migration per schema version (PRAGMA user_version), all
 * pending ones in one transaction. A database written by a newer sandbox is refused.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE partners (
    id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    webhook_secret TEXT
  );
  CREATE TABLE clients (
    client_id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    partner_id TEXT NOT NULL REFERENCES partners(id)
  );
  CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX tokens_expiry ON tokens(expires_at);
  CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX products_status ON products(status, id);
  CREATE TABLE protocols (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    customer_name TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX protocols_partner ON protocols(partner_id, seq);
  CREATE TABLE orders (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    status TEXT NOT NULL,
    status_v101 TEXT NOT NULL,
    next_step_at INTEGER,
    body TEXT NOT NULL
  );
  CREATE INDEX orders_partner ON orders(partner_id, seq);
  CREATE INDEX orders_partner_status ON orders(partner_id, status_v101, seq);
  CREATE INDEX orders_due ON orders(next_step_at) WHERE next_step_at IS NOT NULL;
  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    order_id TEXT NOT NULL,
    status TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_status INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending';
  `,
];

export type Db = Database.Database;

/** Opens the database, encrypted with `key` when one is given (an in-memory one never is). */
export function openDatabase(file: string, key?: StoreKey): Db {
  const db = new Database(file);
  if (key && file !== ':memory:') {
    for (const statement of cipherPragmas(key)) db.pragma(statement);
    // Temporary tables and sorts in memory: SQLite writes them to plain temporary files.
    db.pragma('temp_store = MEMORY');
  }
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The sandbox database is at schema version ${current}, newer than this sandbox (${MIGRATIONS.length}). Use a newer sandbox or another --db file.`,
    );
  }
  if (current === MIGRATIONS.length) return;
  db.transaction(() => {
    for (let v = current; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  })();
}
