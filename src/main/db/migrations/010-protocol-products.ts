/**
 * Schema version 10: which products each protocol's draft orders, one row per product and
 * protocol, indexed by product, so the list's product filter ("who is on Krill Oil?") reads the
 * protocols of one product instead of parsing every draft. Kept in step with the draft by
 * triggers (as the FTS index is with search_text): every write of a draft, whatever module makes
 * it (a local edit, the mirror pull, a conflict resolution, a recovery), updates it in the same
 * statement, and the draft stays the one source of truth. A draft that is not valid JSON, or a
 * line without an integer productId, adds no row (the write is never refused for it).
 */
export const migration010 = /* sql */ `
CREATE TABLE protocol_products (
  product_id   INTEGER NOT NULL,
  protocol_seq INTEGER NOT NULL,  -- protocols.seq
  PRIMARY KEY (product_id, protocol_seq)
) WITHOUT ROWID;
CREATE INDEX protocol_products_by_protocol ON protocol_products (protocol_seq);

CREATE TRIGGER protocol_products_insert AFTER INSERT ON protocols BEGIN
  INSERT OR IGNORE INTO protocol_products (product_id, protocol_seq)
  SELECT json_extract(li.value, '$.productId'), new.seq
  FROM json_each(CASE WHEN json_valid(new.draft) THEN new.draft ELSE '{}' END, '$.lineItems') li
  WHERE json_type(li.value, '$.productId') = 'integer';
END;
CREATE TRIGGER protocol_products_update AFTER UPDATE OF draft ON protocols
  WHEN old.draft IS NOT new.draft BEGIN
  DELETE FROM protocol_products WHERE protocol_seq = old.seq;
  INSERT OR IGNORE INTO protocol_products (product_id, protocol_seq)
  SELECT json_extract(li.value, '$.productId'), new.seq
  FROM json_each(CASE WHEN json_valid(new.draft) THEN new.draft ELSE '{}' END, '$.lineItems') li
  WHERE json_type(li.value, '$.productId') = 'integer';
END;
CREATE TRIGGER protocol_products_delete AFTER DELETE ON protocols BEGIN
  DELETE FROM protocol_products WHERE protocol_seq = old.seq;
END;

INSERT OR IGNORE INTO protocol_products (product_id, protocol_seq)
SELECT json_extract(li.value, '$.productId'), p.seq
FROM protocols p,
  json_each(CASE WHEN json_valid(p.draft) THEN p.draft ELSE '{}' END, '$.lineItems') li
WHERE json_type(li.value, '$.productId') = 'integer';
`;
