/**
 * Schema version 2: one table of jobs for every write to the server (src/main/jobs), in place of
 * the protocol outbox and the batch items, which each had a state machine of their own. Live
 * outbox entries and every batch item move into it; an entry that was in flight is in doubt
 * (reconciled before anything is sent again), as a restart would have made it.
 */
export const migration002 = /* sql */ `
CREATE TABLE jobs (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  kind            TEXT NOT NULL CHECK (kind IN ('protocol', 'order')),
  queue_key       TEXT,              -- jobs with one key are sent one at a time, in id order
  state           TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'in_doubt', 'done', 'rejected')),
  data            TEXT NOT NULL,     -- the kind's JSON (parsed by the kind's zod schema)
  batch_id        TEXT REFERENCES batches (id) ON DELETE CASCADE,
  batch_seq       INTEGER,           -- 0-based position in the batch
  attempts        INTEGER NOT NULL DEFAULT 0,
  sent_at         INTEGER,           -- when the latest attempt was claimed
  next_attempt_at INTEGER,           -- a queued job is not claimed before this time
  error           TEXT,              -- JobError, or null
  result_id       TEXT,              -- the server id the job made or acted on
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
-- One live job per queue key: a protocol's local changes coalesce into it.
CREATE UNIQUE INDEX jobs_one_live_per_key ON jobs (queue_key)
  WHERE state <> 'done' AND queue_key IS NOT NULL;
-- One server order is never claimed by two jobs.
CREATE UNIQUE INDEX jobs_one_job_per_order ON jobs (result_id) WHERE kind = 'order';
CREATE UNIQUE INDEX jobs_batch_seq ON jobs (batch_id, batch_seq) WHERE batch_id IS NOT NULL;
-- The runner's reads: the next job of a kind in a state, per batch (or none), in id order.
CREATE INDEX jobs_by_state ON jobs (state, kind, batch_id, id);
-- When the next job waiting for its backoff is due.
CREATE INDEX jobs_backoff ON jobs (kind, next_attempt_at) WHERE state = 'queued' AND next_attempt_at IS NOT NULL;
CREATE INDEX batches_state ON batches (state, created_at);

INSERT INTO jobs (kind, queue_key, state, data, attempts, sent_at, next_attempt_at, error, created_at, updated_at)
SELECT 'protocol', 'protocol:' || o.protocol_local_id,
  CASE
    WHEN o.state = 'pending' AND o.sent_at IS NULL THEN 'queued'
    WHEN o.state IN ('pending', 'in_doubt') THEN 'in_doubt'
    ELSE 'rejected'
  END,
  json_object('localId', o.protocol_local_id, 'op', o.op, 'baseUpdatedAt', o.base_updated_at,
    'sentRev', o.sent_rev,
    'sent', (SELECT json(s.value) FROM sync_state s WHERE s.key = 'outbox.sent.' || o.seq)),
  o.attempts, o.sent_at, o.next_attempt_at,
  CASE
    WHEN o.state = 'blocked' AND o.last_error LIKE 'conflict: %'
      THEN json_object('kind', 'conflict', 'conflict', substr(o.last_error, 11))
    WHEN o.last_error IS NOT NULL THEN json_object('kind', 'transport', 'message', o.last_error)
  END,
  o.created_at, o.created_at
FROM outbox o WHERE o.state <> 'done' ORDER BY o.seq;
DELETE FROM sync_state WHERE key LIKE 'outbox.sent.%';
DROP TABLE outbox;

INSERT INTO jobs (kind, state, data, batch_id, batch_seq, attempts, sent_at, next_attempt_at, error, result_id, created_at, updated_at)
SELECT 'order',
  CASE i.state WHEN 'created' THEN 'done' WHEN 'sending' THEN 'in_doubt' ELSE i.state END,
  json_object('protocolLocalId', i.protocol_local_id, 'request', json(i.request)),
  i.batch_id, i.seq, i.attempts, i.sent_at, i.next_attempt_at, i.error, i.order_id,
  i.updated_at, i.updated_at
FROM batch_items i ORDER BY i.batch_id, i.seq;
DROP TABLE batch_items;
`;
