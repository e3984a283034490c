import { useCallback } from 'react';
import { useLocation } from 'wouter';
import type { ConnectionView, IpcError, IpcResult } from '@shared/ipc';
import { errorMessage } from '@renderer/lib/ipc';
import { plural } from '@renderer/lib/format';
import { startPath } from '@renderer/lib/shortcuts';
import { unsyncedTotal, useAppStore } from '@renderer/stores/app-store';
import { applyConnection } from '@renderer/stores/main-events';
import { toast } from '@renderer/stores/toast-store';

/**
 * Runs a call that switches the active connection (connect, use embedded, activate, update).
 * Each connection keeps its own local data, so nothing is discarded: unsent changes of the
 * connection left wait for it, and the toast says so.
 */
export function useSwitchConnection() {
  const [, navigate] = useLocation();

  const run = useCallback(
    async (
      attempt: () => Promise<IpcResult<ConnectionView>>,
      onError?: (error: IpcError) => void,
      /** Stay on this screen afterwards (an edit of a saved connection). */
      stay = false,
    ): Promise<boolean> => {
      const before = useAppStore.getState();
      const left = before.connection;
      const unsent = unsyncedTotal(before.outbox);
      const result = await attempt();
      if (!result.ok) {
        if (onError) onError(result.error);
        else toast.error(errorMessage(result.error));
        return false;
      }
      applyConnection(result.value);
      const waiting =
        left && left.id !== result.value.id && unsent > 0
          ? ` ${plural(unsent, 'unsent change')} of ${left.label} ${unsent === 1 ? 'stays' : 'stay'} with it and ${unsent === 1 ? 'is' : 'are'} sent when you switch back.`
          : '';
      toast.success(`Connected to ${result.value.label}.${waiting}`);
      if (!stay) navigate(startPath(useAppStore.getState().startScreen));
      return true;
    },
    [navigate],
  );

  return { run };
}
