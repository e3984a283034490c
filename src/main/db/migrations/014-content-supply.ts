/**
 * Schema version 14: the next refill counts the whole supply of the protocol's own content: when
 * the patient's orders of that content (not cancelled) run out, overlapping ones adding up;
 * `supply_order_id` is the last of them. The same definition in code: src/main/orders/supply.ts
 * (currentSupply). The view is replaced and the column added at the end so that migration 12's
 * triggers keep working: docs/decisions.md, "Content supply (migration 14)".
 */

/** The line items of the JSON `doc` as one text: each "product x quantity @ doses", sorted. */
const linesKey = (doc: string) => /* sql */ `(SELECT group_concat(k, ',' ORDER BY k) FROM (
    SELECT json_extract(li.value, '$.productId') || 'x' || json_extract(li.value, '$.quantity')
      || '@' || CASE WHEN json_type(li.value, '$.administration') = 'object' THEN
        json_extract(li.value, '$.administration.morning') || '/' ||
        json_extract(li.value, '$.administration.afternoon') || '/' ||
        json_extract(li.value, '$.administration.evening') || '/' ||
        json_extract(li.value, '$.administration.sleep') ELSE '-' END AS k
    FROM json_each(${doc}, '$.lineItems') li))`;

/** The orders of protocol row `c` (its patient and lines key), not cancelled. */
const contentOrders = /* sql */ `orders o WHERE o.customer_source_id = c.source_id
    AND o.status <> 'CANCELLED' AND json_valid(o.body)
    AND ${linesKey('o.body')} = c.lines_key`;

export const migration014 = /* sql */ `
ALTER TABLE protocol_columns ADD COLUMN supply_order_id TEXT; -- the last order of refill_at's supply

DROP VIEW protocol_columns_source;
CREATE VIEW protocol_columns_source AS
SELECT seq, products,
  COALESCE((SELECT group_concat(value, char(31)) FROM json_each(products)), '') AS products_key,
  days_supply, ship_id,
  COALESCE((SELECT json_extract(s.body, '$.name') FROM shipping_methods s WHERE s.id = ship_id),
    ship_id, '') AS ship_label,
  lo.id AS last_order_id, lo.status AS last_order_status,
  COALESCE(lo.created_at, -1) AS last_order_at,
  COALESCE((SELECT MAX(runs_out) FROM (
    SELECT o.created_at + 86400000 * SUM(json_extract(o.body, '$.daysSupply'))
      OVER (ORDER BY o.created_at DESC, o.id DESC ROWS UNBOUNDED PRECEDING) AS runs_out
    FROM ${contentOrders})), 8640000000000000) AS refill_at,
  sync_rank,
  (SELECT o.id FROM ${contentOrders} ORDER BY o.created_at DESC, o.id DESC LIMIT 1)
    AS supply_order_id
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
    CASE p.sync_state WHEN 'conflict' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END AS sync_rank,
    CASE WHEN json_valid(p.draft) THEN ${linesKey('p.draft')} END AS lines_key
  FROM protocols p
) c
LEFT JOIN orders lo ON lo.id = (SELECT o.id FROM orders o
  WHERE o.customer_source_id = c.source_id AND o.status <> 'CANCELLED'
  ORDER BY o.created_at DESC, o.id DESC LIMIT 1);

DELETE FROM protocol_columns;
INSERT INTO protocol_columns SELECT * FROM protocol_columns_source;
`;
