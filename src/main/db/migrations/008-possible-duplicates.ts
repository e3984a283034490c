/**
 * Schema version 8: orders that may repeat an order a batch made (the same patient and content,
 * made by another desk or by a create that committed after it was given up on), found when the
 * batch settles; and when each batch was last looked at for them (the batches done before this
 * version count as looked at when they finished).
 */
export const migration008 = /* sql */ `
CREATE TABLE possible_duplicates (
  order_id   TEXT PRIMARY KEY,  -- the order that may be one too many
  of_order   TEXT NOT NULL,     -- the batch item's order it repeats
  batch_id   TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  batch_seq  INTEGER NOT NULL,
  found_at   INTEGER NOT NULL
);
CREATE INDEX possible_duplicates_batch ON possible_duplicates (batch_id, batch_seq);
ALTER TABLE batches ADD COLUMN duplicates_checked_at INTEGER;
-- Batches done before this version are not read again from their first send (months back).
UPDATE batches SET duplicates_checked_at = finished_at WHERE state = 'done';
`;
