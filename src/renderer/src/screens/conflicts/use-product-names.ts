import type { ConflictView } from '@shared/protocol-views';
import type { IpcResult } from '@shared/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

/**
 * Names for the products of the conflicts: the server's copy carries them; the user's version has
 * product ids only, so the others are read from the local catalog (a live query: again when the
 * catalog changes).
 */
export function useProductNames(conflicts: ConflictView[]): (id: number) => string {
  const known: Record<number, string> = {};
  const wanted = new Set<number>();
  for (const c of conflicts) {
    for (const line of c.theirs?.lineItems ?? []) known[line.productId] = line.name;
    for (const line of c.mine?.lineItems ?? []) wanted.add(line.productId);
  }
  const missing = [...wanted].filter((id) => !(id in known)).sort((a, b) => a - b);
  const read = useLiveQuery(
    async (read): Promise<IpcResult<Record<number, string>>> => {
      const found = await Promise.all(missing.map((id) => read('catalog.product', { id })));
      const names: Record<number, string> = {};
      found.forEach((r, i) => {
        if (r.ok) names[missing[i]!] = r.value.name;
      });
      return { ok: true, value: names };
    },
    [missing],
  );
  const names = { ...read.data, ...known };
  return (id) => names[id] ?? `Product ${id}`;
}
