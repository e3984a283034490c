/**
 * Schema version 9: the server's time of a job's latest claim and of its first, written by the
 * claim itself (null: no answer had told the server's time yet). Reconciliation and the
 * duplicate checks look for what an attempt made from there, whatever the PC's clock says.
 */
export const migration009 = /* sql */ `
ALTER TABLE jobs ADD COLUMN sent_server_at INTEGER;
ALTER TABLE jobs ADD COLUMN first_sent_server_at INTEGER;
`;
