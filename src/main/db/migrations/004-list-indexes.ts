/**
 * Schema version 4: narrow indexes holding everything the protocol list and the order queue
 * filter, search and sort on, so a page, a total or a count per status never reads the wide rows
 * (the draft, server and order JSON). Measured in bench/protocol-search.ts and bench/README.md.
 * - protocols_list replaces protocols_scan (seq, deleted, search_text): FTS candidates are
 *   re-checked and sorted by name on it.
 * - orders_queue: the queue's order (created_at, id) with the searched and filtered columns.
 */
export const migration004 = /* sql */ `
-- IF (NOT) EXISTS: a store made by an interim build of issue 12 got protocols_list in version 3.
DROP INDEX IF EXISTS protocols_scan;
CREATE INDEX IF NOT EXISTS protocols_list ON protocols (seq, deleted, sync_state, sort_name, search_text);
CREATE INDEX IF NOT EXISTS orders_queue ON orders (created_at, id, status, customer_source_id, search_text);
`;
