import { useRef } from 'react';
import type { PaletteResults } from '@shared/palette-views';
import { useLiveQuery } from '@renderer/lib/use-query';

const NONE: PaletteResults = { patients: [], protocols: [], orders: [], recentOnly: false };

/**
 * The palette's patients, protocols and orders for `text`, live. While the next text's answer is
 * on its way the last answer stays, so the list does not flash empty between keystrokes.
 */
export function usePaletteSearch(text: string): {
  results: PaletteResults;
  searching: boolean;
  error: string | null;
} {
  const trimmed = text.trim();
  const query = useLiveQuery(
    (read) =>
      trimmed === ''
        ? Promise.resolve({ ok: true as const, value: NONE })
        : read('palette.search', { text: trimmed }),
    [trimmed],
  );
  const last = useRef<PaletteResults>(NONE);
  if (query.status === 'ready') last.current = query.data;
  if (trimmed === '') last.current = NONE;
  return {
    results: last.current,
    searching: query.status === 'loading' && trimmed !== '',
    error: query.status === 'failed' ? query.error.message : null,
  };
}
