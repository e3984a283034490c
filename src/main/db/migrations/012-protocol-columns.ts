/**
 * Schema version 12: what the protocol list's columns show and sort on, one row per protocol
 * (products, days supply, shipping, last order not cancelled, next refill, sync rank), so each
 * sort reads one index a page at a time. Every value is derived; triggers keep it in step with
 * every writer, and `protocol_columns_source` is its one definition. A missing value sorts last
 * in the column's usual direction (-1, 8.64e15, ''). Why, and the triggers' details:
 * docs/decisions.md, "Protocol list columns (migration 12)".
 */
export const migration012 = /* sql */ `
CREATE TABLE protocol_columns (
  seq               INTEGER PRIMARY KEY,             -- protocols.seq
  products          TEXT NOT NULL,                   -- JSON array of names, in the draft's order
  products_key      TEXT NOT NULL COLLATE NOCASE,    -- the names joined by U+001F (the sort)
  days_supply       INTEGER NOT NULL,                -- the draft's; -1 when it has none
  ship_id           TEXT,                            -- the draft's shipping method
  ship_label        TEXT NOT NULL COLLATE NOCASE,    -- its name as listed, else its id, else ''
  last_order_id     TEXT,                            -- the patient's last order not cancelled
  last_order_status TEXT,
  last_order_at     INTEGER NOT NULL,                -- its created_at; -1 when none
  refill_at         INTEGER NOT NULL,                -- its created_at + its days supply; 8.64e15 when none
  sync_rank         INTEGER NOT NULL                 -- 0 conflict, 1 pending, 2 synced
);
CREATE INDEX protocol_columns_products ON protocol_columns (products_key, seq);
CREATE INDEX protocol_columns_supply ON protocol_columns (days_supply, seq);
CREATE INDEX protocol_columns_shipping ON protocol_columns (ship_label, seq);
CREATE INDEX protocol_columns_last_order ON protocol_columns (last_order_at, seq);
CREATE INDEX protocol_columns_refill ON protocol_columns (refill_at, seq);
CREATE INDEX protocol_columns_sync ON protocol_columns (sync_rank, seq);
CREATE INDEX protocol_columns_ship_id ON protocol_columns (ship_id, ship_label);

CREATE VIEW protocol_columns_source AS
SELECT seq, products,
  COALESCE((SELECT group_concat(value, char(31)) FROM json_each(products)), '') AS products_key,
  days_supply, ship_id,
  COALESCE((SELECT json_extract(s.body, '$.name') FROM shipping_methods s WHERE s.id = ship_id),
    ship_id, '') AS ship_label,
  lo.id AS last_order_id, lo.status AS last_order_status,
  COALESCE(lo.created_at, -1) AS last_order_at,
  CASE WHEN json_valid(lo.body) AND json_type(lo.body, '$.daysSupply') = 'integer'
    THEN lo.created_at + json_extract(lo.body, '$.daysSupply') * 86400000
    ELSE 8640000000000000 END AS refill_at,
  sync_rank
FROM (
  SELECT p.seq AS seq, p.source_id AS source_id,
    (SELECT json_group_array(name) FROM (
       SELECT COALESCE(pr.name, 'Product ' || json_extract(li.value, '$.productId'),
         'Unknown product') AS name
       FROM json_each(CASE WHEN json_valid(p.draft) THEN p.draft ELSE '{}' END, '$.lineItems') li
       LEFT JOIN products pr ON pr.id = json_extract(li.value, '$.productId')
       ORDER BY li.key)) AS products,
    CASE WHEN json_valid(p.draft) AND json_type(p.draft, '$.daysSupply') = 'integer'
      THEN json_extract(p.draft, '$.daysSupply') ELSE -1 END AS days_supply,
    CASE WHEN json_valid(p.draft) AND json_type(p.draft, '$.shippingMethod') = 'text'
      THEN json_extract(p.draft, '$.shippingMethod') END AS ship_id,
    CASE p.sync_state WHEN 'conflict' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END AS sync_rank
  FROM protocols p
) c
LEFT JOIN orders lo ON lo.id = (SELECT o.id FROM orders o
  WHERE o.customer_source_id = c.source_id AND o.status <> 'CANCELLED'
  ORDER BY o.created_at DESC, o.id DESC LIMIT 1);

CREATE TRIGGER protocol_columns_insert AFTER INSERT ON protocols BEGIN
  DELETE FROM protocol_columns WHERE seq = new.seq;
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq = new.seq;
END;
CREATE TRIGGER protocol_columns_update AFTER UPDATE OF draft, source_id, sync_state ON protocols
  WHEN old.draft IS NOT new.draft OR old.source_id IS NOT new.source_id
    OR old.sync_state IS NOT new.sync_state BEGIN
  DELETE FROM protocol_columns WHERE seq = new.seq;
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq = new.seq;
END;
CREATE TRIGGER protocol_columns_delete AFTER DELETE ON protocols BEGIN
  DELETE FROM protocol_columns WHERE seq = old.seq;
END;

CREATE TRIGGER protocol_columns_order_insert AFTER INSERT ON orders BEGIN
  DELETE FROM protocol_columns WHERE seq IN (SELECT seq FROM protocols WHERE source_id = new.customer_source_id);
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq IN (SELECT seq FROM protocols WHERE source_id = new.customer_source_id);
END;
CREATE TRIGGER protocol_columns_order_update
  AFTER UPDATE OF status, created_at, customer_source_id ON orders
  WHEN old.status IS NOT new.status OR old.created_at IS NOT new.created_at
    OR old.customer_source_id IS NOT new.customer_source_id BEGIN
  DELETE FROM protocol_columns WHERE seq IN (SELECT seq FROM protocols
    WHERE source_id IN (new.customer_source_id, old.customer_source_id));
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq IN (SELECT seq FROM protocols
    WHERE source_id IN (new.customer_source_id, old.customer_source_id));
END;
CREATE TRIGGER protocol_columns_order_delete AFTER DELETE ON orders BEGIN
  DELETE FROM protocol_columns WHERE seq IN (SELECT seq FROM protocols WHERE source_id = old.customer_source_id);
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq IN (SELECT seq FROM protocols WHERE source_id = old.customer_source_id);
END;

CREATE TRIGGER protocol_columns_product_insert AFTER INSERT ON products BEGIN
  DELETE FROM protocol_columns WHERE seq IN (SELECT protocol_seq FROM protocol_products WHERE product_id = new.id);
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq IN (SELECT protocol_seq FROM protocol_products WHERE product_id = new.id);
END;
CREATE TRIGGER protocol_columns_product_rename AFTER UPDATE OF name ON products
  WHEN old.name IS NOT new.name BEGIN
  DELETE FROM protocol_columns WHERE seq IN (SELECT protocol_seq FROM protocol_products WHERE product_id = new.id);
  INSERT INTO protocol_columns SELECT * FROM protocol_columns_source WHERE seq IN (SELECT protocol_seq FROM protocol_products WHERE product_id = new.id);
END;

CREATE TRIGGER protocol_columns_shipping_insert AFTER INSERT ON shipping_methods BEGIN
  UPDATE protocol_columns SET ship_label = COALESCE(json_extract(new.body, '$.name'), new.id)
  WHERE ship_id = new.id
    AND ship_label <> COALESCE(json_extract(new.body, '$.name'), new.id) COLLATE BINARY;
END;
CREATE TRIGGER protocol_columns_shipping_update AFTER UPDATE OF body ON shipping_methods BEGIN
  UPDATE protocol_columns SET ship_label = COALESCE(json_extract(new.body, '$.name'), new.id)
  WHERE ship_id = new.id
    AND ship_label <> COALESCE(json_extract(new.body, '$.name'), new.id) COLLATE BINARY;
END;

INSERT INTO protocol_columns SELECT * FROM protocol_columns_source;
`;
