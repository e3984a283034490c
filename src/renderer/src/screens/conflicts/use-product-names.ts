import { useEffect, useState } from 'react';
import type { ConflictView } from '../../../../shared/protocol-views';
import { call } from '../../lib/ipc';

/**
 * Names for the products of the conflicts: the server's copy carries them; the user's version has
 * product ids only, so the others are read from the local catalog (once each).
 */
export function useProductNames(conflicts: ConflictView[]): (id: number) => string {
  const [names, setNames] = useState<Record<number, string>>({});
  useEffect(() => {
    const known: Record<number, string> = {};
    const wanted = new Set<number>();
    for (const c of conflicts) {
      for (const line of c.theirs?.lineItems ?? []) known[line.productId] = line.name;
      for (const line of c.mine?.lineItems ?? []) wanted.add(line.productId);
    }
    let cancelled = false;
    if (Object.keys(known).length > 0) setNames((before) => ({ ...before, ...known }));
    const missing = [...wanted].filter((id) => !(id in known));
    if (missing.length === 0) return;
    void Promise.all(
      missing.map(async (id) => {
        const result = await call('catalog.product', { id });
        return [id, result.ok ? result.value.name : null] as const;
      }),
    ).then((found) => {
      if (cancelled) return;
      const more: Record<number, string> = {};
      for (const [id, name] of found) if (name) more[id] = name;
      setNames((before) => ({ ...before, ...more }));
    });
    return () => {
      cancelled = true;
    };
  }, [conflicts]);
  return (id) => names[id] ?? `Product ${id}`;
}
