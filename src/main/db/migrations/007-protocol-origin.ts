/**
 * Schema version 7: where each protocol row came from. 'local': drafted on this desk (the editor,
 * a copy, a CSV import); 'server': inserted by the mirror pull. Only a pulled row may be merged
 * away when this desk's own create turns out to have made the same server protocol; a row the
 * user made is never deleted to tidy up. Rows from before this version may be either: they are
 * counted as the user's.
 */
export const migration007 = /* sql */ `
ALTER TABLE protocols ADD COLUMN origin TEXT NOT NULL DEFAULT 'local'
  CHECK (origin IN ('local', 'server'));
`;
