/**
 * Schema version 6: protocols_by_name carries the filtered and searched columns, as
 * protocols_by_change does, so a page by name of a common search (or of terms too short for
 * trigrams) walks the name order and stops after the page, never reading the wide rows.
 */
export const migration006 = /* sql */ `
DROP INDEX IF EXISTS protocols_by_name;
CREATE INDEX protocols_by_name ON protocols (sort_name, seq, deleted, sync_state, search_text);
`;
