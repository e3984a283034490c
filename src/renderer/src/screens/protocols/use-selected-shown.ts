import { useState } from 'react';
import type { ProtocolMatch } from '@shared/protocol-views';
import { useDebounced } from '@renderer/lib/use-debounced';
import { useLiveQuery } from '@renderer/lib/use-query';
import { isFiltered, matchOf, useProtocolsStore } from '@renderer/stores/protocols-store';

/** How long the search rests before the selected protocols it hides are counted. */
const SHOWN_WAIT_MS = 250;

/**
 * How many of the selected protocols the search and filters show (the others stay selected):
 * all of them unless the list is filtered; null while counting. Counted once the search rests:
 * it reads every match, which no keystroke should wait for.
 */
export function useSelectedShown(selected: ReadonlySet<string>): number | null {
  const searchText = useProtocolsStore((s) => s.searchText);
  const syncStates = useProtocolsStore((s) => s.syncStates);
  const productId = useProtocolsStore((s) => s.productId);
  const due = useProtocolsStore((s) => s.due);
  const filtered = isFiltered({ searchText, syncStates, productId, due });
  const key = JSON.stringify(matchOf({ searchText, syncStates, productId, due }));
  const [rested, setRested] = useState(key);
  useDebounced(key, SHOWN_WAIT_MS, setRested);
  const counting = filtered && selected.size > 0;
  const ids = useLiveQuery(
    (read) =>
      counting
        ? read('protocols.matchingIds', JSON.parse(rested) as ProtocolMatch)
        : Promise.resolve({ ok: true as const, value: { localIds: [] } }),
    [rested, counting],
  );
  if (!counting) return selected.size;
  if (rested !== key || !ids.data) return null;
  let shown = 0;
  for (const id of ids.data.localIds) if (selected.has(id)) shown++;
  return shown;
}
