import type { ProtocolMatch, ProtocolRowView } from '@shared/protocol-views';
import type { Handlers } from './fake-order-desk';
import { packProduct } from './fixtures';
import { notedViews } from './protocol-fixtures';

// Kept apart from protocol-fixtures.ts, which node tests import too: this needs the fake bridge
// and its DOM types.

/**
 * main's answers for the Protocols screen over `rows`: the list, its count and select-all by the
 * search (a name's substring) and the sync-state filter, the catalog, and the notes of filters.
 */
export function protocolListHandlers(rows: readonly ProtocolRowView[]): Handlers {
  const matching = (q: ProtocolMatch) =>
    rows.filter(
      (r) =>
        r.customerName.toLowerCase().includes((q.search ?? '').toLowerCase()) &&
        (!q.syncStates?.length || q.syncStates.includes(r.syncState)),
    );
  return {
    'protocols.list': (q) => ({ items: matching(q), nextCursor: null }),
    'protocols.count': (q) => ({ total: matching(q).length }),
    'protocols.matchingIds': (q) => ({ localIds: matching(q).map((r) => r.localId) }),
    'catalog.products': () => ({ products: [packProduct()], total: 1 }),
    'undo.noteView': notedViews(),
  };
}
