/**
 * Schema version 18: `order_days`, the orders and their total in cents per UTC day of createdAt
 * (created_at / 86400000) and status, kept by triggers on the orders as `order_slices` (migration
 * 16) is. The dashboard sums a local week or month as the UTC days it spans, give or take the
 * quarter hours between its local midnights and the nearest UTC midnights (from order_slices):
 * about a thousand rows a year where the quarter hours were sixty thousand (docs/decisions.md,
 * "Dashboard"). A body that is not JSON counts as an order with no total, as in order_slices.
 *
 * And `product_months`, the order lines (order_lines, migration 16) summed per UTC month of their
 * order's createdAt (year * 12 + month - 1), product and status, kept by triggers on
 * order_lines: the top products are its months, give or take the lines between the first local
 * month's midnight and the nearest UTC month's start (order_lines_created). A product's name is
 * the greatest its lines carry, one step down `order_lines_names`.
 */
export const migration018 = /* sql */ `
CREATE TABLE order_days (
  day     INTEGER NOT NULL,      -- created_at / 86400000: the UTC day of the orders' createdAt
  status  TEXT NOT NULL,
  orders  INTEGER NOT NULL,      -- how many orders of that day have that status
  cents   INTEGER NOT NULL,      -- what they cost (totalPrice, in cents)
  PRIMARY KEY (day, status)
) WITHOUT ROWID;
INSERT INTO order_days (day, status, orders, cents)
SELECT created_at / 86400000, status, COUNT(*),
  COALESCE(SUM(CASE WHEN json_valid(body) THEN CAST(replace(json_extract(body, '$.totalPrice'), '.', '') AS INTEGER) END), 0)
FROM orders GROUP BY created_at / 86400000, status;

CREATE TRIGGER order_days_insert AFTER INSERT ON orders BEGIN
  INSERT INTO order_days (day, status, orders, cents)
  VALUES (NEW.created_at / 86400000, NEW.status, 1, COALESCE((CASE WHEN json_valid(NEW.body) THEN CAST(replace(json_extract(NEW.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0))
  ON CONFLICT (day, status) DO UPDATE SET orders = orders + 1, cents = cents + excluded.cents;
END;
CREATE TRIGGER order_days_update AFTER UPDATE OF status, created_at, body ON orders BEGIN
  UPDATE order_days SET orders = orders - 1, cents = cents - COALESCE((CASE WHEN json_valid(OLD.body) THEN CAST(replace(json_extract(OLD.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0)
  WHERE day = OLD.created_at / 86400000 AND status = OLD.status;
  DELETE FROM order_days WHERE day = OLD.created_at / 86400000 AND status = OLD.status AND orders = 0;
  INSERT INTO order_days (day, status, orders, cents)
  VALUES (NEW.created_at / 86400000, NEW.status, 1, COALESCE((CASE WHEN json_valid(NEW.body) THEN CAST(replace(json_extract(NEW.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0))
  ON CONFLICT (day, status) DO UPDATE SET orders = orders + 1, cents = cents + excluded.cents;
END;
CREATE TRIGGER order_days_delete AFTER DELETE ON orders BEGIN
  UPDATE order_days SET orders = orders - 1, cents = cents - COALESCE((CASE WHEN json_valid(OLD.body) THEN CAST(replace(json_extract(OLD.body, '$.totalPrice'), '.', '') AS INTEGER) END), 0)
  WHERE day = OLD.created_at / 86400000 AND status = OLD.status;
  DELETE FROM order_days WHERE day = OLD.created_at / 86400000 AND status = OLD.status AND orders = 0;
END;

CREATE TABLE product_months (
  month      INTEGER NOT NULL,   -- the UTC month of the order's createdAt: year * 12 + month - 1
  product_id INTEGER NOT NULL,
  status     TEXT NOT NULL,      -- the order's status
  lines      INTEGER NOT NULL,   -- how many lines
  quantity   INTEGER NOT NULL,
  cents      INTEGER NOT NULL,   -- their cents (a line with none counts 0)
  PRIMARY KEY (month, product_id, status)
) WITHOUT ROWID;
INSERT INTO product_months (month, product_id, status, lines, quantity, cents)
SELECT CAST(strftime('%Y', created_at / 1000, 'unixepoch') AS INTEGER) * 12
    + CAST(strftime('%m', created_at / 1000, 'unixepoch') AS INTEGER) - 1 AS month,
  product_id, status, COUNT(*), SUM(quantity), COALESCE(SUM(cents), 0)
FROM order_lines GROUP BY 1, 2, 3;
CREATE INDEX order_lines_created ON order_lines (created_at);
CREATE INDEX order_lines_names ON order_lines (product_id, name);

CREATE TRIGGER product_months_insert AFTER INSERT ON order_lines BEGIN
  INSERT INTO product_months (month, product_id, status, lines, quantity, cents)
  VALUES (CAST(strftime('%Y', NEW.created_at / 1000, 'unixepoch') AS INTEGER) * 12
      + CAST(strftime('%m', NEW.created_at / 1000, 'unixepoch') AS INTEGER) - 1,
    NEW.product_id, NEW.status, 1, NEW.quantity, COALESCE(NEW.cents, 0))
  ON CONFLICT (month, product_id, status) DO UPDATE SET lines = lines + 1,
    quantity = quantity + excluded.quantity, cents = cents + excluded.cents;
END;
CREATE TRIGGER product_months_delete AFTER DELETE ON order_lines BEGIN
  UPDATE product_months SET lines = lines - 1, quantity = quantity - OLD.quantity,
    cents = cents - COALESCE(OLD.cents, 0)
  WHERE month = CAST(strftime('%Y', OLD.created_at / 1000, 'unixepoch') AS INTEGER) * 12
      + CAST(strftime('%m', OLD.created_at / 1000, 'unixepoch') AS INTEGER) - 1
    AND product_id = OLD.product_id AND status = OLD.status;
  DELETE FROM product_months
  WHERE month = CAST(strftime('%Y', OLD.created_at / 1000, 'unixepoch') AS INTEGER) * 12
      + CAST(strftime('%m', OLD.created_at / 1000, 'unixepoch') AS INTEGER) - 1
    AND product_id = OLD.product_id AND status = OLD.status AND lines = 0;
END;
CREATE TRIGGER product_months_update AFTER UPDATE ON order_lines BEGIN
  SELECT RAISE(ABORT, 'order_lines are only inserted and deleted (product_months)');
END;
`;
