import { create } from 'zustand';
import type { AppOrder } from '../../../shared/api';
import type { IpcError } from '../../../shared/ipc';
import type { OrderStatusChangeView } from '../../../shared/work-views';
import { call } from '../lib/ipc';

type Load<T> =
  { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; error: IpcError };

/** What became of the last refresh or cancel, shown above the order until the next action. */
export type ActionNote =
  | { kind: 'refreshed' }
  | { kind: 'refresh-failed'; error: IpcError }
  | { kind: 'cancelled' }
  | { kind: 'cancel-refused'; message: string }
  | { kind: 'cancel-failed'; error: IpcError };

interface OrderDetailStore {
  orderId: string | null;
  order: Load<AppOrder> | null;
  timeline: Load<OrderStatusChangeView[]> | null;
  busy: 'refresh' | 'cancel' | null;
  note: ActionNote | null;
  /** Shows this order (reads it and its timeline); null closes the detail. */
  open(orderId: string | null): void;
  reloadOrder(): Promise<void>;
  loadTimeline(): Promise<void>;
  refresh(): Promise<void>;
  cancel(): Promise<void>;
  dismissNote(): void;
  /** Orders that changed (events): the open one is replaced and its timeline read again. */
  applyLive(orders: readonly AppOrder[]): void;
  reset(): void;
}

const initial = {
  orderId: null,
  order: null,
  timeline: null,
  busy: null,
  note: null,
};

/** The order open at #/orders/<id>: the mirror's copy, its status timeline, refresh and cancel. */
export const useOrderDetailStore = create<OrderDetailStore>((set, get) => {
  /** Applies a result only while the same order is open. */
  const still = (orderId: string) => get().orderId === orderId;

  return {
    ...initial,

    open(orderId) {
      if (orderId === get().orderId) return;
      set({ ...initial, orderId });
      if (orderId === null) return;
      void get().reloadOrder();
      void get().loadTimeline();
    },

    async reloadOrder() {
      const orderId = get().orderId;
      if (orderId === null) return;
      set({ order: { state: 'loading' } });
      const result = await call('orders.get', { orderId });
      if (!still(orderId)) return;
      set({
        order: result.ok
          ? { state: 'ready', value: result.value }
          : { state: 'failed', error: result.error },
      });
    },

    async loadTimeline() {
      const orderId = get().orderId;
      if (orderId === null) return;
      if (get().timeline?.state !== 'ready') set({ timeline: { state: 'loading' } });
      const result = await call('orders.timeline', { orderId });
      if (!still(orderId)) return;
      // A failed re-read keeps the timeline already shown.
      if (!result.ok && get().timeline?.state === 'ready') return;
      set({
        timeline: result.ok
          ? { state: 'ready', value: result.value }
          : { state: 'failed', error: result.error },
      });
    },

    async refresh() {
      const orderId = get().orderId;
      if (orderId === null || get().busy) return;
      set({ busy: 'refresh', note: null });
      const result = await call('orders.refresh', { orderId });
      if (!still(orderId)) return;
      if (result.ok) {
        set({
          busy: null,
          order: { state: 'ready', value: result.value },
          note: { kind: 'refreshed' },
        });
        void get().loadTimeline();
      } else {
        set({ busy: null, note: { kind: 'refresh-failed', error: result.error } });
      }
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
      const order = outcome.order;
      set({
        busy: null,
        ...(order ? { order: { state: 'ready' as const, value: order } } : {}),
        note: outcome.ok
          ? { kind: 'cancelled' }
          : { kind: 'cancel-refused', message: outcome.message },
      });
      void get().loadTimeline();
    },

    dismissNote: () => set({ note: null }),

    applyLive(orders) {
      const orderId = get().orderId;
      const changed = orderId === null ? undefined : orders.find((o) => o.id === orderId);
      if (!changed) return;
      set({ order: { state: 'ready', value: changed } });
      void get().loadTimeline();
    },

    reset: () => set({ ...initial }),
  };
});
