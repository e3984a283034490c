import { useCallback, useRef } from 'react';
import type { ProductRead } from '@shared/api';
import type { IpcResult } from '@shared/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

export type LineProduct = ProductRead | 'loading' | 'missing';

export interface LineProducts {
  /** The catalog entry of a line's product: 'loading' until read, 'missing' when not found. */
  productOf(id: number): LineProduct;
  /** A product just picked from the search is known already: its line shows it at once. */
  remember(product: ProductRead): void;
}

/**
 * The catalog entries of the protocol's products, read from the local mirror (again when the
 * catalog changes). While a new line's product is read, the lines already shown keep theirs.
 */
export function useLineProducts(ids: readonly number[]): LineProducts {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const seen = useRef(new Map<number, LineProduct>());
  const read = useLiveQuery(
    async (read): Promise<IpcResult<Map<number, LineProduct>>> => {
      const answers = await Promise.all(unique.map((id) => read('catalog.product', { id })));
      const products = new Map<number, LineProduct>();
      for (const [i, answer] of answers.entries()) {
        if (answer.ok) products.set(unique[i]!, answer.value);
        else if (answer.error.kind === 'not-found') products.set(unique[i]!, 'missing');
        else return answer;
      }
      return { ok: true, value: products };
    },
    [unique],
  );
  if (read.data) for (const [id, product] of read.data) seen.current.set(id, product);
  const data = read.data;
  const productOf = useCallback(
    (id: number): LineProduct => data?.get(id) ?? seen.current.get(id) ?? 'loading',
    [data],
  );
  const remember = useCallback((product: ProductRead) => {
    seen.current.set(product.id, product);
  }, []);
  return { productOf, remember };
}
