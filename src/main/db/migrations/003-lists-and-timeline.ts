import type Database from 'better-sqlite3-multiple-ciphers';

/*
 * Frozen copies of the normalisation as it was when this migration was written
 * (protocols/protocol-search.ts's normalizeForSearch and nameSortKey, orders/order-search.ts's
 * orderSearchText). A migration imports no live code: a later change to those functions must not
 * change what version 3 writes into a database that reaches it; rows already migrated would not
 * follow such a change anyway, so it needs a migration of its own.
 */

const normalizeForSearch = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** Characters of each name part kept in the sort key. */
const SORT_PART_MAX = 80;

const sortPart = (text: string): string => {
  const part = normalizeForSearch(text).slice(0, SORT_PART_MAX);
  // Never end on half of a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(part) ? part.slice(0, -1) : part;
};

/** Last name, then first name, separated by U+001F (sorts before every printable character). */
const nameSortKey = (c: { firstName: string; lastName: string }): string =>
  `${sortPart(c.lastName)}\u001f${sortPart(c.firstName)}`;

/** Patient name, sourceId and order id, folded, with a trailing space. */
function orderSearchText(order: {
  id: string;
  customer: { firstName: string; lastName: string; sourceId: string };
}): string {
  const c = order.customer;
  return `${[c.firstName, c.lastName, c.sourceId, order.id]
    .map(normalizeForSearch)
    .filter(Boolean)
    .join(' ')} `;
}

/**
 * Schema version 3: protocols.sort_name (the name sort's key, indexed with seq and deleted, so a
 * page walks the index), orders.search_text (the queue's search) and order_status_changes (each
 * status the app saw; mirrored orders start with their current one, seen at their updatedAt).
 * The derived columns are filled with the app's own normalisation (frozen above).
 */
const SQL = /* sql */ `
ALTER TABLE protocols ADD COLUMN sort_name TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN search_text TEXT NOT NULL DEFAULT '';

UPDATE protocols SET sort_name = order_desk_name_sort_key(
  json_extract(draft, '$.customer.firstName'), json_extract(draft, '$.customer.lastName'));
UPDATE orders SET search_text = order_desk_order_search_text(
  id, json_extract(body, '$.customer.firstName'), json_extract(body, '$.customer.lastName'),
  customer_source_id);

CREATE INDEX protocols_by_name ON protocols (sort_name, seq, deleted);

CREATE TABLE order_status_changes (
  id       INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  status   TEXT NOT NULL,
  previous TEXT,                 -- the status before it, null for the first one seen
  seen_at  INTEGER NOT NULL      -- epoch ms, local clock (seeded rows: the order's updatedAt)
);
CREATE INDEX order_status_changes_order ON order_status_changes (order_id, id);
INSERT INTO order_status_changes (order_id, status, previous, seen_at)
  SELECT id, status, NULL, updated_at FROM orders ORDER BY created_at, id;
`;

export function migration003(db: Database.Database): void {
  db.function('order_desk_name_sort_key', { deterministic: true }, (first, last) =>
    nameSortKey({ firstName: String(first ?? ''), lastName: String(last ?? '') }),
  );
  db.function('order_desk_order_search_text', { deterministic: true }, (id, first, last, source) =>
    orderSearchText({
      id: String(id),
      customer: {
        firstName: String(first ?? ''),
        lastName: String(last ?? ''),
        sourceId: String(source ?? ''),
      },
    }),
  );
  db.exec(SQL);
}
