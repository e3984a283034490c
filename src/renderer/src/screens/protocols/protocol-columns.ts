import type { ProtocolColumn, ProtocolSort, SortDirection } from '@shared/protocol-views';

/** A column of the protocol list: its header, the sort it offers, and its usual direction. */
export interface ColumnDef {
  /** 'patient' always shows; the others can be hidden (ProtocolColumn). */
  key: 'patient' | ProtocolColumn;
  label: string;
  sort: ProtocolSort;
  /** The direction a first click sorts in (the contract's default for the sort). */
  direction: SortDirection;
}

/**
 * The list's columns in order: the header and each row's cells both follow this one list, so they
 * cannot drift apart.
 */
export const COLUMNS: readonly ColumnDef[] = [
  { key: 'patient', label: 'Patient', sort: 'name', direction: 'asc' },
  { key: 'products', label: 'Products', sort: 'products', direction: 'asc' },
  { key: 'supply', label: 'Supply', sort: 'supply', direction: 'asc' },
  { key: 'shipping', label: 'Shipping', sort: 'shipping', direction: 'asc' },
  { key: 'lastOrder', label: 'Last order', sort: 'lastOrder', direction: 'desc' },
  { key: 'nextRefill', label: 'Next refill', sort: 'nextRefill', direction: 'asc' },
  { key: 'changed', label: 'Changed', sort: 'changed', direction: 'desc' },
  { key: 'sync', label: 'Sync', sort: 'sync', direction: 'asc' },
];

/** The header's label of each column that can be hidden (the column chooser's). */
export const COLUMN_LABELS = Object.fromEntries(COLUMNS.map((c) => [c.key, c.label])) as Record<
  ColumnDef['key'],
  string
>;

/** The class a column's cells carry, in the header and in every row. */
export const cellClass = (key: ColumnDef['key']) => `protocol-cell protocol-cell-${key}`;

/** The words for a direction, as a screen reader says the sort. */
export const DIRECTION_WORDS: Record<SortDirection, string> = {
  asc: 'ascending',
  desc: 'descending',
};
