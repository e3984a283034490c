import { create } from 'zustand';
import type { IpcError } from '@shared/ipc';
import { call } from '../lib/ipc';

/** What became of the last refresh or cancel, shown above the order until the next action. */
export type ActionNote =
  | { kind: 'refreshed' }
  | { kind: 'refresh-failed'; error: IpcError }
  | { kind: 'cancelled' }
  | { kind: 'cancel-refused'; message: string }
  | { kind: 'cancel-failed'; error: IpcError };

interface OrderDetailStore {
  /** The order the busy state and the note belong to. */
  orderId: string | null;
  busy: 'refresh' | 'cancel' | null;
  note: ActionNote | null;
  /** Another order is shown: the note of the last one goes. */
  show(orderId: string): void;
  refresh(): Promise<void>;
  cancel(): Promise<void>;
  dismissNote(): void;
}

/**
 * The actions on the order open at #/orders/<id> (refresh from the server, cancel) and what
 * became of them. The order and its timeline are live queries of the detail's: what an action
 * writes to the mirror reaches them as a change of orders.
 */
export const useOrderDetailStore = create<OrderDetailStore>((set, get) => {
  /** Applies a result only while the same order is open. */
  const still = (orderId: string) => get().orderId === orderId;

  return {
    orderId: null,
    busy: null,
    note: null,

    show(orderId) {
      if (orderId !== get().orderId) set({ orderId, busy: null, note: null });
    },

    async refresh() {
      const orderId = get().orderId;
      if (orderId === null || get().busy) return;
      set({ busy: 'refresh', note: null });
      const result = await call('orders.refresh', { orderId });
      if (!still(orderId)) return;
      set({
        busy: null,
        note: result.ok ? { kind: 'refreshed' } : { kind: 'refresh-failed', error: result.error },
      });
    },

    async cancel() {
      const orderId = get().orderId;
      if (orderId === null || get().busy) return;
      set({ busy: 'cancel', note: null });
      const result = await call('orders.cancel', { orderId });
      if (!still(orderId)) return;
      if (!result.ok) {
        set({ busy: null, note: { kind: 'cancel-failed', error: result.error } });
        return;
      }
      const outcome = result.value;
      set({
        busy: null,
        note: outcome.ok
          ? { kind: 'cancelled' }
          : { kind: 'cancel-refused', message: outcome.message },
      });
    },

    dismissNote: () => set({ note: null }),
  };
});
