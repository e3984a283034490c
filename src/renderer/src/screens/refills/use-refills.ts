import { useCallback, useEffect, useRef, useState } from 'react';
import type { IpcError } from '../../../../shared/ipc';
import type { RefillsView } from '../../../../shared/work-views';
import { call, on } from '../../lib/ipc';

export type RefillsState =
  | { status: 'loading'; value: RefillsView | null; withinDays: number | null }
  | { status: 'ready'; value: RefillsView; withinDays: number }
  | { status: 'failed'; value: RefillsView | null; withinDays: number | null; error: IpcError };

/** How long a burst of order changes is let settle before the list is asked for again. */
const RELOAD_AFTER_CHANGE_MS = 400;

/**
 * refills.due for `withinDays`, asked again when the orders this app knows change (the poller
 * found a new status, a batch created orders). The last answer stays on screen while the next
 * one loads; an answer for a number no longer chosen is dropped.
 */
export function useRefills(withinDays: number): { state: RefillsState; reload: () => void } {
  const [state, setState] = useState<RefillsState>({
    status: 'loading',
    value: null,
    withinDays: null,
  });
  const latest = useRef(0);

  const load = useCallback(async (days: number) => {
    const ticket = ++latest.current;
    setState((s) => ({ status: 'loading', value: s.value, withinDays: s.withinDays }));
    const result = await call('refills.due', { withinDays: days });
    if (ticket !== latest.current) return;
    setState((s) =>
      result.ok
        ? { status: 'ready', value: result.value, withinDays: days }
        : { status: 'failed', value: s.value, withinDays: s.withinDays, error: result.error },
    );
  }, []);

  useEffect(() => {
    void load(withinDays);
  }, [load, withinDays]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void load(withinDays), RELOAD_AFTER_CHANGE_MS);
    };
    const offs = [
      on('order-status', later),
      on('batch-progress', (e) => {
        if (e.state === 'done') later();
      }),
    ];
    return () => {
      if (timer) clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [load, withinDays]);

  return { state, reload: useCallback(() => void load(withinDays), [load, withinDays]) };
}
