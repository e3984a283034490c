import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import type { ConnectionView, IpcError, IpcResult } from '../../../../shared/ipc';
import { errorMessage } from '../../lib/ipc';
import { applyConnection } from '../../stores/events';
import { toast } from '../../stores/toast-store';

/** A switch that main refused because local changes are not synced yet, waiting for a yes. */
export interface PendingSwitch {
  message: string;
  retry(): Promise<void>;
}

/**
 * Runs a call that switches the active connection (connect, use embedded, activate). When main
 * answers 'pending-work', keeps the call so the user can confirm discarding and run it again.
 */
export function useSwitchConnection() {
  const [pending, setPending] = useState<PendingSwitch | null>(null);
  const [, navigate] = useLocation();

  const run = useCallback(
    async (
      attempt: (discardPendingWork: boolean) => Promise<IpcResult<ConnectionView>>,
      onError?: (error: IpcError) => void,
      /** Stay on this screen afterwards (an edit of a saved connection). */
      stay = false,
    ): Promise<boolean> => {
      const finish = (result: IpcResult<ConnectionView>): boolean => {
        if (result.ok) {
          applyConnection(result.value);
          toast.success(`Connected to ${result.value.label}.`);
          if (!stay) navigate('/protocols');
          return true;
        }
        if (onError) onError(result.error);
        else toast.error(errorMessage(result.error));
        return false;
      };
      const result = await attempt(false);
      if (!result.ok && result.error.kind === 'pending-work') {
        setPending({
          message: result.error.message,
          retry: async () => {
            setPending(null);
            finish(await attempt(true));
          },
        });
        return false;
      }
      return finish(result);
    },
    [navigate],
  );

  return { run, pending, cancel: () => setPending(null) };
}
