import { useRef } from 'react';
import type { IpcError } from '@shared/ipc';
import type { RefillsView } from '@shared/work-views';
import { call } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

export type RefillsState =
  | { status: 'loading'; value: RefillsView | null; withinDays: number | null }
  | { status: 'ready'; value: RefillsView; withinDays: number }
  | { status: 'failed'; value: RefillsView | null; withinDays: number | null; error: IpcError };

/**
 * refills.due for `withinDays`, a live query: read again when orders or protocols change (the
 * poller found a new status, a batch created orders, a protocol was edited). The last answer
 * stays on screen while another number of days is read.
 */
export function useRefills(withinDays: number): { state: RefillsState; reload: () => void } {
  const read = useLiveQuery(
    () => call('refills.due', { withinDays }),
    [withinDays],
    ['orders', 'protocols'],
  );
  const shown = useRef<{ value: RefillsView; withinDays: number } | null>(null);
  if (read.data) shown.current = { value: read.data, withinDays };
  const last = shown.current;
  const state: RefillsState =
    read.status === 'ready'
      ? { status: 'ready', value: read.data, withinDays }
      : read.status === 'failed'
        ? {
            status: 'failed',
            value: last?.value ?? null,
            withinDays: last?.withinDays ?? null,
            error: read.error,
          }
        : { status: 'loading', value: last?.value ?? null, withinDays: last?.withinDays ?? null };
  return { state, reload: read.refresh };
}
