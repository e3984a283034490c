/**
 * Schema version 19: a trigram index over the orders' searched text (the queue's and the
 * palette's search: patient name, Patient ID, order id), as protocols_fts is over the protocols'.
 * A text that few orders match made the search's LIKE read all of orders_queue (13 ms at 100,000
 * orders; docs/decisions.md, "The command palette").
 *
 * The index is keyed by order_search.seq, a rowid of its own: orders has no INTEGER PRIMARY KEY,
 * so its rowids may change in a VACUUM (a rekey), which would leave an FTS keyed on them pointing
 * at other orders. order_search (seq, order_id, search_text) is kept from orders by triggers, and
 * the FTS (external content, detail=none) from order_search, as protocols_fts is; the search
 * re-checks each candidate with LIKE on order_search's narrow rows.
 */
export const migration019 = /* sql */ `
CREATE TABLE order_search (
  seq         INTEGER PRIMARY KEY,
  order_id    TEXT NOT NULL UNIQUE,
  search_text TEXT NOT NULL
);
CREATE VIRTUAL TABLE order_search_fts USING fts5 (
  search_text,
  content = 'order_search',
  content_rowid = 'seq',
  tokenize = 'trigram',
  detail = 'none'
);
CREATE TRIGGER order_search_fts_insert AFTER INSERT ON order_search BEGIN
  INSERT INTO order_search_fts (rowid, search_text) VALUES (new.seq, new.search_text);
END;
CREATE TRIGGER order_search_fts_delete AFTER DELETE ON order_search BEGIN
  INSERT INTO order_search_fts (order_search_fts, rowid, search_text)
    VALUES ('delete', old.seq, old.search_text);
END;
CREATE TRIGGER order_search_fts_update AFTER UPDATE OF search_text ON order_search
  WHEN old.search_text IS NOT new.search_text BEGIN
  INSERT INTO order_search_fts (order_search_fts, rowid, search_text)
    VALUES ('delete', old.seq, old.search_text);
  INSERT INTO order_search_fts (rowid, search_text) VALUES (new.seq, new.search_text);
END;

CREATE TRIGGER orders_search_insert AFTER INSERT ON orders BEGIN
  INSERT INTO order_search (order_id, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER orders_search_delete AFTER DELETE ON orders BEGIN
  DELETE FROM order_search WHERE order_id = old.id;
END;
CREATE TRIGGER orders_search_update AFTER UPDATE OF id, search_text ON orders
  WHEN old.id IS NOT new.id OR old.search_text IS NOT new.search_text BEGIN
  UPDATE order_search SET order_id = new.id, search_text = new.search_text WHERE order_id = old.id;
END;

INSERT INTO order_search (order_id, search_text) SELECT id, search_text FROM orders ORDER BY rowid;
`;
