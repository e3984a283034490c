import { create } from 'zustand';
import { call, describeError } from '../lib/ipc';
import { watchBatch } from '@renderer/stores/notifier';
import { toast } from './toast-store';

interface BatchesStore {
  /** A pause or continue under way. */
  toggling: boolean;
  /** Items (by seq) whose retry is under way. */
  retrying: Record<number, true>;
  /** Orders (by id) whose cancel is under way. */
  cancelling: Record<string, true>;
  submitting: boolean;
  /** Why the last submit was refused, for people. */
  submitError: string | null;
  /**
   * Sends the included protocols as one batch; answers its id, or null when refused.
   * `allowDuplicateOf`: per protocol, the orders it repeats that the user included it beside.
   */
  submit(
    protocolLocalIds: readonly string[],
    allowDuplicateOf?: Readonly<Record<string, string[]>>,
    /** The batch's name; blank is none. */
    name?: string,
  ): Promise<string | null>;
  pause(batchId: string): Promise<void>;
  resume(batchId: string): Promise<void>;
  /** Sends a rejected item again; `sendAnyway`: one held back as a possible duplicate. */
  retry(batchId: string, seq: number, options?: { sendAnyway?: boolean }): Promise<void>;
  /** Cancels a possible duplicate order (only a NEW order can be); says what became of it. */
  cancelOrder(orderId: string): Promise<void>;
  reset(): void;
}

const initial = {
  toggling: false,
  retrying: {},
  cancelling: {},
  submitting: false,
  submitError: null,
} satisfies Partial<BatchesStore>;

/**
 * What the batch screens do (submit, pause, continue, retry an item, cancel a possible
 * duplicate) and what became of it. The batches, their progress and items are live queries of
 * the screens' (screens/batches/use-batches.ts): what an action writes reaches them as a change.
 */
export const useBatchesStore = create<BatchesStore>((set, get) => ({
  ...initial,

  async submit(protocolLocalIds, allowDuplicateOf, name) {
    if (get().submitting) return null;
    set({ submitting: true, submitError: null });
    const result = await call('batches.submit', {
      protocolLocalIds: [...protocolLocalIds],
      ...(allowDuplicateOf && Object.keys(allowDuplicateOf).length > 0
        ? { allowDuplicateOf: { ...allowDuplicateOf } }
        : {}),
      ...(name ? { name } : {}),
    });
    set({ submitting: false });
    if (result.ok) {
      // Its end is news even if the first event heard of it already says done.
      watchBatch(result.value.batchId);
      return result.value.batchId;
    }
    const { title, detail } = describeError(result.error);
    const reasons = result.error.fieldErrors.map((f) => f.message);
    set({ submitError: [detail ?? title, ...reasons].join(' ') });
    return null;
  },

  pause: (batchId) => toggle(batchId, 'batches.pause'),
  resume: (batchId) => toggle(batchId, 'batches.continue'),

  async retry(batchId, seq, options = {}) {
    if (get().retrying[seq]) return;
    set({ retrying: { ...get().retrying, [seq]: true } });
    const result = await call('batches.retryItem', {
      batchId,
      seq,
      ...(options.sendAnyway ? { sendAnyway: true } : {}),
    });
    const { [seq]: _done, ...rest } = get().retrying;
    set({ retrying: rest });
    if (!result.ok) {
      const { title, detail } = describeError(result.error);
      toast.error(`The order could not be sent again. ${title}`, detail);
    }
  },

  async cancelOrder(orderId) {
    if (get().cancelling[orderId]) return;
    set({ cancelling: { ...get().cancelling, [orderId]: true } });
    const result = await call('orders.cancel', { orderId });
    const { [orderId]: _done, ...rest } = get().cancelling;
    set({ cancelling: rest });
    if (!result.ok) {
      const { title, detail } = describeError(result.error);
      toast.error(`Order ${orderId} was not cancelled. ${title}`, detail);
    } else if (result.value.ok) toast.success(`Order ${orderId} is cancelled.`);
    else toast.error(`Order ${orderId} was not cancelled.`, result.value.message);
  },

  reset: () => set(initial),
}));

async function toggle(batchId: string, channel: 'batches.pause' | 'batches.continue') {
  if (useBatchesStore.getState().toggling) return;
  useBatchesStore.setState({ toggling: true });
  const result = await call(channel, { batchId });
  useBatchesStore.setState({ toggling: false });
  if (!result.ok) {
    const { title, detail } = describeError(result.error);
    toast.error(
      channel === 'batches.pause'
        ? `The batch could not be paused. ${title}`
        : `The batch could not be continued. ${title}`,
      detail,
    );
  }
}
