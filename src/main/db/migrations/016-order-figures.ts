/**
 * Schema version 16: the figures the dashboard sums (docs/decisions.md, "Dashboard"), kept out of
 * the orders' JSON so that no read parses every body: `order_slices`, the orders and their total
 * in cents per quarter hour of createdAt and status, and `order_lines`, one row per line item with
 * the order's createdAt and status, indexed in product order so the sums per product stream
 * without sorting. Both are kept by triggers on the orders, whatever module writes. A body that
 * is not JSON (damaged) counts as an order with no total and no lines.
 */
export const migration016 = /* sql */ `
CREATE TABLE order_slices (
  slice   INTEGER NOT NULL,      -- created_at / 900000: the quarter hour of the orders' createdAt
  status  TEXT NOT NULL,
  orders  INTEGER NOT NULL,      -- how many orders of that quarter hour have that status
  cents   INTEGER NOT NULL,      -- what they cost (totalPrice, in cents)
  PRIMARY KEY (slice, status)
) WITHOUT ROWID;
INSERT INTO order_slices (slice, status, orders, cents)
SELECT created_at / 900000, status, COUNT(*),
  COALESCE(SUM(CASE WHEN json_valid(body) THEN CAST(replace(json_extract(body, '$.totalPrice'), '.', '') AS INTEGER) END), 0)
FROM orders GROUP BY created_at / 900000, status;

CREATE TABLE order_lines (
  order_id   TEXT NOT NULL,
  seq        INTEGER NOT NULL,     -- the line's position in the order
  created_at INTEGER NOT NULL,     -- the order's createdAt, epoch ms
  status     TEXT NOT NULL,        -- the order's status
  product_id INTEGER NOT NULL,
  quantity   INTEGER NOT NULL,
  cents      INTEGER,              -- the line's totalPrice, else its discountedPrice times its quantity
  name       TEXT,                 -- the name the line carries (1.0.1 servers send none)
  PRIMARY KEY (order_id, seq)
) WITHOUT ROWID;
CREATE INDEX order_lines_figures ON order_lines (product_id, status, created_at, quantity, cents, name);

INSERT INTO order_lines (order_id, seq, created_at, status, product_id, quantity, cents, name)
SELECT o.id, li.key, o.created_at, o.status,
  json_extract(li.value, '$.productId'), json_extract(li.value, '$.quantity'),
  COALESCE(CAST(replace(json_extract(li.value, '$.totalPrice'), '.', '') AS INTEGER),
    CAST(replace(json_extract(li.value, '$.discountedPrice'), '.', '') AS INTEGER)
      * json_extract(li.value, '$.quantity')),
  json_extract(li.value, '$.name')
FROM orders o, json_each(o.body, '$.lineItems') li
WHERE json_valid(o.body) AND json_type(li.value, '$.productId') = 'integer'
  AND json_type(li.value, '$.quantity') = 'integer';

CREATE TRIGGER order_slices_insert AFTER INSERT ON orders BEGIN
  INSERT INTO order_slices (slice, status, orders, cents)
  VALUES (NEW.created_at / 900000, NEW.status, 1, COALESCE((CASE WHEN json_valid(NEW.body) THEN CAST(replace(json_extract(NEW.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0))
  ON CONFLICT (slice, status) DO UPDATE SET orders = orders + 1, cents = cents + excluded.cents;
END;
CREATE TRIGGER order_slices_update AFTER UPDATE OF status, created_at, body ON orders BEGIN
  UPDATE order_slices SET orders = orders - 1, cents = cents - COALESCE((CASE WHEN json_valid(OLD.body) THEN CAST(replace(json_extract(OLD.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0)
  WHERE slice = OLD.created_at / 900000 AND status = OLD.status;
  DELETE FROM order_slices WHERE slice = OLD.created_at / 900000 AND status = OLD.status AND orders = 0;
  INSERT INTO order_slices (slice, status, orders, cents)
  VALUES (NEW.created_at / 900000, NEW.status, 1, COALESCE((CASE WHEN json_valid(NEW.body) THEN CAST(replace(json_extract(NEW.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0))
  ON CONFLICT (slice, status) DO UPDATE SET orders = orders + 1, cents = cents + excluded.cents;
END;
CREATE TRIGGER order_slices_delete AFTER DELETE ON orders BEGIN
  UPDATE order_slices SET orders = orders - 1, cents = cents - COALESCE((CASE WHEN json_valid(OLD.body) THEN CAST(replace(json_extract(OLD.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0)
  WHERE slice = OLD.created_at / 900000 AND status = OLD.status;
  DELETE FROM order_slices WHERE slice = OLD.created_at / 900000 AND status = OLD.status AND orders = 0;
END;

CREATE TRIGGER order_lines_insert AFTER INSERT ON orders WHEN json_valid(NEW.body) BEGIN
  INSERT INTO order_lines (order_id, seq, created_at, status, product_id, quantity, cents, name)
  SELECT NEW.id, li.key, NEW.created_at, NEW.status,
    json_extract(li.value, '$.productId'), json_extract(li.value, '$.quantity'),
    COALESCE(CAST(replace(json_extract(li.value, '$.totalPrice'), '.', '') AS INTEGER),
      CAST(replace(json_extract(li.value, '$.discountedPrice'), '.', '') AS INTEGER)
        * json_extract(li.value, '$.quantity')),
    json_extract(li.value, '$.name')
  FROM json_each(NEW.body, '$.lineItems') li
  WHERE json_type(li.value, '$.productId') = 'integer'
    AND json_type(li.value, '$.quantity') = 'integer';
END;
CREATE TRIGGER order_lines_update AFTER UPDATE OF status, created_at, body ON orders BEGIN
  DELETE FROM order_lines WHERE order_id = OLD.id;
  INSERT INTO order_lines (order_id, seq, created_at, status, product_id, quantity, cents, name)
  SELECT NEW.id, li.key, NEW.created_at, NEW.status,
    json_extract(li.value, '$.productId'), json_extract(li.value, '$.quantity'),
    COALESCE(CAST(replace(json_extract(li.value, '$.totalPrice'), '.', '') AS INTEGER),
      CAST(replace(json_extract(li.value, '$.discountedPrice'), '.', '') AS INTEGER)
        * json_extract(li.value, '$.quantity')),
    json_extract(li.value, '$.name')
  FROM json_each(CASE WHEN json_valid(NEW.body) THEN NEW.body ELSE '{}' END, '$.lineItems') li
  WHERE json_type(li.value, '$.productId') = 'integer'
    AND json_type(li.value, '$.quantity') = 'integer';
END;
CREATE TRIGGER order_lines_delete AFTER DELETE ON orders BEGIN
  DELETE FROM order_lines WHERE order_id = OLD.id;
END;
`;
