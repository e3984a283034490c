/**
 * Schema version 13: the activity record (audit trail), append-only, one SHA-256 hash chain per
 * store (docs/architecture.md, "The activity record"). Triggers refuse every UPDATE, and every
 * DELETE but the retention purge's, announced first in `activity_retention`. `seq` is never
 * reused, so even removed newest entries leave a gap the check sees. The purge, its anchor and
 * the other tables: docs/decisions.md, "Activity record schema (migration 13)".
 */
export const migration013 = /* sql */ `
CREATE TABLE activity (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,  -- 1, 2, 3, ... the chain's order; never reused
  at_local   TEXT NOT NULL,         -- the PC's clock when it was done, ISO 8601 in UTC
  at_server  TEXT,                  -- the server's time, ISO 8601 in UTC; null: unknown or offline
  desk_id    TEXT NOT NULL,         -- the data folder's random desk id
  desk_name  TEXT NOT NULL,         -- the computer's name
  os_user    TEXT NOT NULL,         -- the OS account
  staff      TEXT,                  -- the person picked as at the desk; null: none picked
  action     TEXT NOT NULL,         -- the shared ActivityAction
  subjects   TEXT NOT NULL,         -- JSON: the ids touched (ActivitySubjects)
  detail     TEXT NOT NULL,         -- JSON: counts, choices, key names (ActivityDetail)
  prev_hash  TEXT NOT NULL,         -- the hash of the row before
  hash       TEXT NOT NULL          -- SHA-256 of this row's fields and prev_hash
);
CREATE INDEX activity_action ON activity (action, seq);
CREATE INDEX activity_staff ON activity (staff, seq);
CREATE INDEX activity_os_user ON activity (os_user, seq);
CREATE INDEX activity_at_local ON activity (at_local);

CREATE TABLE activity_patients (
  patient_id TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  PRIMARY KEY (patient_id, seq)
) WITHOUT ROWID;

CREATE TABLE activity_retention (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  purge_through INTEGER,            -- while a purge runs: the last seq it may remove
  purge_before  TEXT,               -- while a purge runs: only rows older than this (at_local)
  anchor_seq    INTEGER,            -- the last row a purge removed
  anchor_hash   TEXT                -- its hash: the prev_hash of the oldest row kept
);

CREATE TRIGGER activity_patients_insert AFTER INSERT ON activity BEGIN
  INSERT INTO activity_patients (patient_id, seq)
    SELECT DISTINCT value, new.seq
    FROM json_each(CASE WHEN json_valid(new.subjects) THEN new.subjects ELSE '{}' END, '$.patients')
    WHERE type = 'text';
END;
CREATE TRIGGER activity_patients_delete AFTER DELETE ON activity BEGIN
  DELETE FROM activity_patients WHERE seq = old.seq AND patient_id IN (
    SELECT value FROM json_each(
      CASE WHEN json_valid(old.subjects) THEN old.subjects ELSE '{}' END, '$.patients'));
END;

CREATE TRIGGER activity_no_update BEFORE UPDATE ON activity BEGIN
  SELECT RAISE(ABORT, 'The activity record is append-only: an entry cannot be changed.');
END;
CREATE TRIGGER activity_no_delete BEFORE DELETE ON activity
  WHEN NOT EXISTS (SELECT 1 FROM activity_retention WHERE id = 1
    AND old.seq <= purge_through AND old.at_local < purge_before)
BEGIN
  SELECT RAISE(ABORT, 'The activity record is append-only: only the retention purge removes entries.');
END;

ALTER TABLE batches ADD COLUMN actor TEXT;  -- JSON: who submitted it (ActivityActor); null before
`;
