/**
 * Schema version 11: a batch's name, as the user gave it on the review (trimmed, at most 80
 * characters); null when none was given, and the app shows the batch's start date instead.
 */
export const migration011 = /* sql */ `
ALTER TABLE batches ADD COLUMN name TEXT;
`;
