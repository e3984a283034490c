/**
 * Schema version 1: every table of the local store (design: docs/decisions.md, "Main process:
 * local store"; the comments here say what each column holds). Local times are INTEGER epoch ms
 * from the injected clock; server times compared or ordered are epoch ms parsed from the server's
 * ISO string, which stays verbatim in the JSON body and in `base_updated_at` (compared for
 * equality). Every JSON column is parsed with zod when read back. No column holds a secret.
 */
export const migration001 = /* sql */ `
-- Server environments. The client secret lives in the OS keychain, never here.
CREATE TABLE connections (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('embedded', 'partner-sandbox', 'production')),
  label      TEXT NOT NULL,
  base_url   TEXT NOT NULL,
  auth_url   TEXT NOT NULL,
  client_id  TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  is_active  INTEGER NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1))
);
-- At most one active connection.
CREATE UNIQUE INDEX connections_one_active ON connections (is_active) WHERE is_active = 1;

-- Non-secret settings: value is JSON, parsed with the caller's zod schema on read.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Sync cursors and marks (products.updatedAfter, protocols.lastFullPull, orders.lastPull, ...): JSON.
CREATE TABLE sync_state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Mirror of the catalog. body = shared Product.
CREATE TABLE products (
  id         INTEGER PRIMARY KEY,
  status     TEXT NOT NULL,
  name       TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  body       TEXT NOT NULL
);
CREATE INDEX products_status ON products (status, id);
CREATE INDEX products_updated ON products (updated_at);

-- Mirror of the shipping methods, in the server's order. body = shared ShippingMethodInfo.
CREATE TABLE shipping_methods (
  id       TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  body     TEXT NOT NULL
);

-- The local model of a protocol: the user's draft plus the last known server copy.
CREATE TABLE protocols (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT, -- stable rowid: FTS rowid, list order, cursors
  local_id         TEXT NOT NULL UNIQUE,              -- uuid: the identity everything refers to
  server_id        TEXT UNIQUE,                       -- null until created on the server
  customer_name    TEXT NOT NULL,                     -- "First Last" of the draft
  source_id        TEXT NOT NULL,
  email            TEXT,
  search_text      TEXT NOT NULL,                     -- normalised name, sourceId, email (FTS content)
  sync_state       TEXT NOT NULL CHECK (sync_state IN ('synced', 'pending', 'conflict')),
  deleted          INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)), -- deleted locally, push pending
  base_updated_at  TEXT,                              -- server updatedAt the draft is based on
  rev              INTEGER NOT NULL DEFAULT 0,        -- +1 on every change of the draft
  created_at       INTEGER NOT NULL,
  local_updated_at INTEGER NOT NULL,
  draft            TEXT NOT NULL,                     -- ProtocolDraft (shape of ProtocolRequest)
  server           TEXT,                              -- shared Protocol, or null
  conflict         TEXT                               -- ProtocolConflict, or null
);
CREATE INDEX protocols_source_id ON protocols (source_id);
CREATE INDEX protocols_unsynced ON protocols (sync_state) WHERE sync_state <> 'synced';
-- Narrow copy of the searched text in list order: queries of only 1-2 character terms (too short
-- for trigrams) scan this index instead of the table.
CREATE INDEX protocols_scan ON protocols (seq, deleted, search_text);

-- Substring search over search_text: trigram FTS5 index, kept in sync by triggers. detail=none:
-- the repository plans queries from the rarest trigrams and re-checks every term with LIKE.
CREATE VIRTUAL TABLE protocols_fts USING fts5 (
  search_text,
  content = 'protocols',
  content_rowid = 'seq',
  tokenize = 'trigram',
  detail = 'none'
);
CREATE TRIGGER protocols_fts_insert AFTER INSERT ON protocols BEGIN
  INSERT INTO protocols_fts (rowid, search_text) VALUES (new.seq, new.search_text);
END;
CREATE TRIGGER protocols_fts_delete AFTER DELETE ON protocols BEGIN
  INSERT INTO protocols_fts (protocols_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
END;
CREATE TRIGGER protocols_fts_update AFTER UPDATE OF search_text ON protocols
  WHEN old.search_text IS NOT new.search_text BEGIN
  INSERT INTO protocols_fts (protocols_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
  INSERT INTO protocols_fts (rowid, search_text) VALUES (new.seq, new.search_text);
END;

-- Protocol mutations not yet acknowledged by the server, pushed in seq order.
CREATE TABLE outbox (
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  protocol_local_id TEXT NOT NULL REFERENCES protocols (local_id) ON DELETE CASCADE,
  op                TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
  base_updated_at   TEXT,                 -- server updatedAt the change is based on (null for create)
  state             TEXT NOT NULL CHECK (state IN ('pending', 'in_doubt', 'blocked', 'done')),
  attempts          INTEGER NOT NULL DEFAULT 0,
  last_error        TEXT,
  sent_at           INTEGER,              -- set while a push is in flight or in doubt
  sent_rev          INTEGER,              -- protocols.rev that the push in flight carries
  next_attempt_at   INTEGER,              -- backoff: not pushed before this time
  created_at        INTEGER NOT NULL,
  done_at           INTEGER
);
-- Only one live (not done) entry per protocol: local writes coalesce into it.
CREATE UNIQUE INDEX outbox_one_live ON outbox (protocol_local_id) WHERE state <> 'done';
CREATE INDEX outbox_live ON outbox (state, seq) WHERE state <> 'done';

-- Mirror of orders. body = shared AppOrder.
CREATE TABLE orders (
  id                 TEXT PRIMARY KEY,
  status             TEXT NOT NULL,
  status_precision   TEXT NOT NULL CHECK (status_precision IN ('exact', 'coarse')),
  customer_source_id TEXT NOT NULL,
  customer_name      TEXT NOT NULL,
  created_at         INTEGER NOT NULL,  -- server createdAt, epoch ms
  updated_at         INTEGER NOT NULL,  -- server updatedAt, epoch ms
  source             TEXT NOT NULL CHECK (source IN ('created', 'pulled')),
  next_poll_at       INTEGER,           -- null: not polled (final state, or not scheduled)
  last_polled_at     INTEGER,
  local_updated_at   INTEGER NOT NULL,
  body               TEXT NOT NULL
);
CREATE INDEX orders_created ON orders (created_at DESC);
CREATE INDEX orders_status ON orders (status, created_at DESC);
CREATE INDEX orders_source_id ON orders (customer_source_id, created_at DESC);
CREATE INDEX orders_due ON orders (next_poll_at) WHERE next_poll_at IS NOT NULL;

-- Bulk submissions: one item per protocol, with the create request frozen at batch creation.
CREATE TABLE batches (
  id          TEXT PRIMARY KEY,
  created_at  INTEGER NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('running', 'paused', 'done')),
  concurrency INTEGER NOT NULL CHECK (concurrency >= 1),
  total       INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE TABLE batch_items (
  batch_id          TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  seq               INTEGER NOT NULL,     -- 0-based position in the batch
  protocol_local_id TEXT NOT NULL,        -- no foreign key: the frozen request outlives the protocol
  request           TEXT NOT NULL,        -- shared CreateOrderRequest
  state             TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'in_doubt', 'created', 'rejected')),
  order_id          TEXT UNIQUE,          -- one server order is never claimed by two items
  error             TEXT,                 -- BatchItemError, or null
  attempts          INTEGER NOT NULL DEFAULT 0,
  sent_at           INTEGER,              -- when the latest attempt was sent
  next_attempt_at   INTEGER,              -- a requeued item is not claimed before this time
  updated_at        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, seq)
);
CREATE INDEX batch_items_state ON batch_items (batch_id, state, seq);
CREATE INDEX batch_items_unsettled ON batch_items (state) WHERE state IN ('sending', 'in_doubt');
`;
