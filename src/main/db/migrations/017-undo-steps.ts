/**
 * Schema version 17: the undo history of the connection (docs/decisions.md, "Undo and redo").
 * One row per step a person can undo: `seq` orders them, `kind` says which command made it
 * (create, edit, duplicate, delete, import, resolve), `label` is what the window shows ("Edit of
 * the protocol for ..."), `payload` the JSON of the protocols' drafts before and after (read
 * back with zod), `undone` 1 when the step was undone and may be redone. The app keeps the last
 * 50 steps that are not undone; a new step drops the undone ones.
 *
 * And an index of the jobs by queue key, whatever their state: forgetting a protocol never sent
 * removes its jobs by key (`DELETE FROM jobs WHERE queue_key = ?`), which the partial index of
 * live jobs cannot serve; an import of 10,000 rows undone forgot them in 2 s of table scans.
 */
export const migration017 = /* sql */ `
CREATE TABLE undo_steps (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  payload TEXT NOT NULL,
  undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
  at INTEGER NOT NULL
);
CREATE INDEX undo_steps_undone ON undo_steps (undone, seq);
CREATE INDEX jobs_by_queue_key ON jobs (queue_key) WHERE queue_key IS NOT NULL;
`;
