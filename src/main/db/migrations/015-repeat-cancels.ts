/**
 * Schema version 15: a possible duplicate this desk cancels by itself. When this desk's order of a
 * batch repeats another desk's order of the same patient and content made at the same moment, and
 * it is the later of the two (server time, then id), this desk cancels it while it is NEW
 * (docs/decisions.md, "Two desks at the same moment"). `auto_cancel`: null, left to a person;
 * 'pending', to be cancelled by this desk; 'done', cancelled by it; 'refused', the server no
 * longer let it (already processing): left to a person.
 */
export const migration015 = /* sql */ `
ALTER TABLE possible_duplicates ADD COLUMN auto_cancel TEXT
  CHECK (auto_cancel IN ('pending', 'done', 'refused'));
CREATE INDEX possible_duplicates_auto_cancel ON possible_duplicates (auto_cancel)
  WHERE auto_cancel = 'pending';
`;
