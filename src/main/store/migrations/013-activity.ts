/**
 * Schema version 13: the activity record (audit trail), append-only, one hash chain per store
 * (docs/architecture.md, "The activity record").
 *
 * `activity` holds one row per thing done. Each row's `hash` is the SHA-256 (hex) of its fields
 * and `prev_hash`, the hash of the row before it (a fixed genesis value before the first), so a
 * changed or missing row breaks the chain where it is. Triggers refuse every UPDATE, and every
 * DELETE but the retention purge's: the purge first writes, in `activity_retention`, the last seq
 * it may remove and the time before which a row must be (`purge_through`, `purge_before`), deletes
 * and clears them, all in one transaction; `anchor_seq` and `anchor_hash` keep the last row it
 * removed, where the chain of the rows kept starts. The purge writes that row only when it first
 * runs, so a recovered store's copy of it is never refused as a duplicate.
 *
 * `seq` is AUTOINCREMENT: a seq is never given twice, so even the newest entries removed leave a
 * gap the check sees.
 *
 * `activity_patients` lists each row's Patient IDs (a trigger fills it from `subjects`), so the
 * screen's patient filter reads an index, not every row's JSON. `batches.actor` keeps who
 * submitted a batch: the orders its jobs create later are recorded as theirs.
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
