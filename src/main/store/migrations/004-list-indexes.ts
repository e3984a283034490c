/**
 * Schema version 4: narrow indexes holding everything the protocol list and the order queue
 * filter, search and sort on, so a page, a total or a count per status never reads the wide rows
 * (the draft, server and order JSON). Measured in bench/protocol-search.ts and bench/README.md.
 * - protocols_list replaces protocols_scan (seq, deleted, search_text): FTS candidates are
 *   re-checked and sorted by name on it.
 * - orders_queue: the queue's order (created_at, id) with the searched and filtered columns.
 */
export const migration004 = /* sql */ `
DROP INDEX protocols_scan;
CREATE INDEX protocols_list ON protocols (seq, deleted, sync_state, sort_name, search_text);
CREATE INDEX orders_queue ON orders (created_at, id, status, customer_source_id, search_text);
`;
