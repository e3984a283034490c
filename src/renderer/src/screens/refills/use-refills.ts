import { useRef } from 'react';
import type { IpcError, IpcResult } from '@shared/ipc';
import type { RefillsView } from '@shared/work-views';
import { useLiveQuery } from '@renderer/lib/use-query';

/** One answer of refills.due, with the number of days it was asked for. */
interface Answer {
  value: RefillsView;
  withinDays: number;
}

export type RefillsState =
  | { status: 'loading'; value: RefillsView | null; withinDays: number | null }
  | { status: 'ready'; value: RefillsView; withinDays: number }
  | { status: 'failed'; value: RefillsView | null; withinDays: number | null; error: IpcError };

/**
 * refills.due for `withinDays`, a live query: read again when orders or protocols change (the
 * poller found a new status, a batch created orders, a protocol was edited). The last answer
 * stays on screen while another number of days is read, named by the days it answers for: each
 * answer carries the days it was asked with, so the heading, the count and the rows are always
 * one answer's, whatever the chooser says meanwhile.
 */
export function useRefills(withinDays: number): { state: RefillsState; reload: () => void } {
  const read = useLiveQuery(
    async (read): Promise<IpcResult<Answer>> => {
      const result = await read('refills.due', { withinDays });
      return result.ok ? { ok: true, value: { value: result.value, withinDays } } : result;
    },
    [withinDays],
  );
  const shown = useRef<Answer | null>(null);
  if (read.data) shown.current = read.data;
  const last = shown.current;
  // Until the answer for the days now chosen is in (the render that changes them still holds the
  // query's previous state), it is still loading.
  const state: RefillsState =
    read.status === 'ready' && read.data.withinDays === withinDays
      ? { status: 'ready', ...read.data }
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
