import { ProtocolRowView, type ProtocolListView } from '@shared/protocol-views';
import type { UndoStepView } from '@shared/undo-views';

/**
 * Rows of the protocol list as main answers protocols.list, parsed with their schema so a
 * fixture that drifts from the contract fails where it is built.
 */
export function protocolRow(
  over: Partial<ProtocolRowView> = {},
  columns: Partial<ProtocolRowView['columns']> = {},
): ProtocolRowView {
  return ProtocolRowView.parse({
    localId: '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11',
    serverId: 'prot_1',
    customerName: 'Ada Lovelace',
    sourceId: 'PAT-ADA-1',
    email: 'ada@example.com',
    syncState: 'synced',
    deleted: false,
    localUpdatedAt: Date.parse('2026-11-20T09:00:00.000Z'),
    change: null,
    ...over,
    columns: {
      products: ['Magnesium Glycinate 120 mg'],
      daysSupply: 30,
      shipping: 'Standard',
      lastOrder: null,
      cancelledAt: null,
      ...columns,
    },
  });
}

/** The protocol list's filters and sort as the window starts with them, with `change`. */
export const listView = (change: Partial<ProtocolListView> = {}): ProtocolListView => ({
  syncStates: [],
  productId: null,
  due: null,
  sort: 'changed',
  direction: null,
  ...change,
});

/**
 * main's answer to undo.noteView, the window's note of a filter or sort a person chose: the step
 * it noted (each call a new one).
 */
export function notedViews(): () => UndoStepView {
  let seq = 0;
  return () => ({ seq: (seq += 1), kind: 'view', label: 'Filters of the protocol list' });
}
