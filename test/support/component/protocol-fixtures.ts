import { ProtocolRowView } from '@shared/protocol-views';

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
