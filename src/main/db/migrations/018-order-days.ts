/**
 * Schema version 18: `order_days`, the orders and their total in cents per UTC day of createdAt
 * (created_at / 86400000) and status, kept by triggers on the orders as `order_slices` (migration
 * 16) is. The dashboard sums a local week or month as the UTC days it spans, give or take the
 * quarter hours between its local midnights and the nearest UTC midnights (from order_slices):
 * about a thousand rows a year where the quarter hours were sixty thousand (docs/decisions.md,
 * "Dashboard"). A body that is not JSON counts as an order with no total, as in order_slices.
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
`;
