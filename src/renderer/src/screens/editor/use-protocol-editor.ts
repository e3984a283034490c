import { call } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

/** The editor's reads: the protocol it opens, its sync state as it changes, the product search. */

/** The saved protocol, read once: the form starts from it. */
export function useSavedProtocol(localId: string) {
  return useLiveQuery(() => call('protocols.get', { localId }), [localId]);
}

/** The protocol being edited, read again whenever it or its job changes (its sync state). */
export function useFollowedProtocol(localId: string | null) {
  const saved = useLiveQuery(
    (read) =>
      localId
        ? read('protocols.get', { localId })
        : Promise.resolve({ ok: true as const, value: null }),
    [localId],
  );
  return saved;
}

const RESULTS = 20;

/** The product search of the picker: nothing until the user has typed or opened the list. */
export function useProductSearch(search: string | null) {
  // A live query of the catalog mirror once the user has typed or opened the list.
  const query = { ...(search ? { search } : {}), limit: RESULTS, sort: 'orderable' as const };
  const read = useLiveQuery(
    async (read) => {
      if (search === null) return { ok: true as const, value: null };
      const found = await read('catalog.products', query);
      return found.ok ? { ok: true as const, value: { ...found.value, search } } : found;
    },
    [query, search === null],
  );
  return read;
}
