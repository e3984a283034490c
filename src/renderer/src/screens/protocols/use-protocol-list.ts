import { useEffect } from 'react';
import type { ProtocolRowView } from '@shared/protocol-views';
import type { Read } from '@renderer/lib/live-query';
import type { Page } from '@renderer/lib/paged-query';
import { useLiveQuery, usePagedQuery, type PagedQueryHook } from '@renderer/lib/use-query';
import type { IpcResult } from '@shared/ipc';
import { usePendingDeleteStore } from '@renderer/stores/pending-delete-store';
import { PAGE, matchOf, orderOf, useProtocolsStore } from '@renderer/stores/protocols-store';

/** Which protocols the list shows now: the store's search and filters, less undo-pending deletes. */
function matchArgs() {
  const s = useProtocolsStore.getState();
  const hide = Object.keys(usePendingDeleteStore.getState().pending);
  return { ...matchOf(s), ...(hide.length > 0 ? { hide } : {}) };
}

/** What the list is read with now: matchArgs in the store's order. */
const listArgs = () => ({ ...matchArgs(), ...orderOf(useProtocolsStore.getState()) });

async function readPage(
  read: Read,
  _index: number,
  after: string | null,
): Promise<IpcResult<Page<ProtocolRowView>>> {
  const page = await read('protocols.list', { ...listArgs(), limit: PAGE, cursor: after });
  return page.ok
    ? { ok: true, value: { rows: page.value.items, next: page.value.nextCursor } }
    : page;
}

/** How many match: read after the rows, as it reads every match of a broad search. */
async function readCount(read: Read): Promise<IpcResult<number>> {
  const counted = await read('protocols.count', matchArgs());
  return counted.ok ? { ok: true, value: counted.value.total } : counted;
}

/**
 * The protocols the list shows, a page at a time (keyset pages: each after the one before), read
 * again whenever protocols or their jobs change (their badges follow the jobs), or the orders and
 * the catalog their columns show (the last order, product names). The rows come
 * first and their count after, so a keystroke's rows wait for no count. The search typed
 * restarts the list from the stores themselves, outside React: the query leaves with the
 * keystroke, and the screen renders once, when its rows are in.
 */
export function useProtocolList(): PagedQueryHook<ProtocolRowView> {
  const list = usePagedQuery<ProtocolRowView>(readPage, [], {
    pageSize: PAGE,
    randomAccess: false,
    count: readCount,
  });
  const { restart } = list;
  useEffect(() => {
    let key = JSON.stringify(listArgs());
    const follow = () => {
      const next = JSON.stringify(listArgs());
      if (next === key) return;
      key = next;
      restart();
    };
    const offs = [useProtocolsStore.subscribe(follow), usePendingDeleteStore.subscribe(follow)];
    return () => offs.forEach((off) => off());
  }, [restart]);
  return list;
}

/** The most catalog products offered (the contract's largest page of catalog.products). */
const PRODUCTS_MAX = 500;

/** The catalog mirror's products by name: what the product filter offers (works offline). */
export function useCatalogByName() {
  const catalog = useLiveQuery(
    (read) => read('catalog.products', { limit: PRODUCTS_MAX, sort: 'name' }),
    [],
  );
  return catalog;
}
