/**
 * Schema version 1 of the app store (app.db): what belongs to the app rather than to one
 * connection. docs/architecture.md ("One store file per connection") explains the split; the
 * connection stores keep the schema of src/main/db/migrations.
 */
export const appMigration001 = /* sql */ `
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

-- The app's non-secret settings (theme, notifications, updates): JSON, parsed on read.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- What the app must tell the user until they dismiss it (a damaged store recovered).
CREATE TABLE notices (
  id           TEXT PRIMARY KEY,   -- unique per event, so that telling it twice is harmless
  kind         TEXT NOT NULL,
  created_at   INTEGER NOT NULL,   -- epoch ms, local clock
  body         TEXT NOT NULL,      -- JSON: the shared StoreNotice
  dismissed_at INTEGER             -- null while shown
);
CREATE INDEX notices_shown ON notices (created_at) WHERE dismissed_at IS NULL;
`;
