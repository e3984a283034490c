import { create } from 'zustand';
import type { IpcError } from '../../../shared/ipc';
import type { BatchItemView, BatchReviewView, BatchView } from '../../../shared/work-views';
import { createCoalescer } from '../lib/coalesce';
import { call, describeError } from '../lib/ipc';
import { applyProgress, newestFirst, type BatchProgress } from './batch-progress';
import { toast } from './toast-store';
import { watchBatch } from '../lib/notifier';

/** Least time between two applications of progress events (counts, bars) and item re-reads. */
export const PROGRESS_REREAD_MS = 250;
/**
 * Rest after an item re-read, as a multiple of how long it took: re-reading a 1,000-item batch
 * then takes at most 1/20 of the time of both processes, however slow the machine, so watching a
 * batch does not slow it down; the counts and bars still follow every event.
 */
export const ITEMS_REST_FACTOR = 19;

interface Run {
  batchId: string;
  status: 'loading' | 'ready' | 'failed' | 'missing';
  error: IpcError | null;
  batch: BatchView | null;
  items: BatchItemView[];
}

interface Review {
  /** The protocols reviewed, in the order chosen. */
  protocolLocalIds: string[];
  status: 'loading' | 'ready' | 'failed';
  value: BatchReviewView | null;
  error: IpcError | null;
}

interface BatchesStore {
  batches: BatchView[];
  listState: 'idle' | 'loading' | 'ready' | 'failed';
  listError: IpcError | null;
  /** The batch open in the run view, with its items. */
  run: Run | null;
  /** A pause or continue under way. */
  toggling: boolean;
  /** Items (by seq) whose retry is under way. */
  retrying: Record<number, true>;
  /** The review of the protocols chosen for the next batch. */
  review: Review | null;
  submitting: boolean;
  /** Why the last submit was refused, for people. */
  submitError: string | null;
  loadReview(protocolLocalIds: readonly string[]): Promise<void>;
  /**
   * Sends the included protocols as one batch; answers its id, or null when refused.
   * `allowDuplicateOf`: per protocol, the orders it repeats that the user included it beside.
   */
  submit(
    protocolLocalIds: readonly string[],
    allowDuplicateOf?: Readonly<Record<string, string[]>>,
  ): Promise<string | null>;
  loadList(): Promise<void>;
  openRun(batchId: string): Promise<void>;
  closeRun(): void;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Sends a rejected item again; `sendAnyway`: one held back as a possible duplicate. */
  retry(seq: number, options?: { sendAnyway?: boolean }): Promise<void>;
  /** Orders (by id) whose cancel is under way. */
  cancelling: Record<string, true>;
  /** Cancels a possible duplicate order (only a NEW order can be); says what became of it. */
  cancelOrder(orderId: string): Promise<void>;
  /** main's batch-progress event: recorded at once, applied and re-read at most every 250 ms. */
  onProgress(event: BatchProgress): void;
  reset(): void;
}

/** The newest progress of each batch, since the last coalesced refresh. */
const latest = new Map<string, BatchProgress>();
/** Set when something changed the open batch's items since they were last read. */
let itemsDirty = false;
let listStale = false;
let runGeneration = 0;
let listGeneration = 0;
let reviewGeneration = 0;

const progressRefresher = createCoalescer(() => applyProgressEvents(), {
  intervalMs: PROGRESS_REREAD_MS,
});
const itemsRefresher = createCoalescer(() => rereadItems(), {
  intervalMs: PROGRESS_REREAD_MS,
  restFactor: ITEMS_REST_FACTOR,
});

/** What the store holds before anything is loaded (and after a switch of connection). */
const initial = {
  batches: [],
  listState: 'idle',
  listError: null,
  run: null,
  toggling: false,
  retrying: {},
  cancelling: {},
  review: null,
  submitting: false,
  submitError: null,
} satisfies Partial<BatchesStore>;

/**
 * Bulk submission as the batches screens show it: the list of batches, and the open batch's
 * items. Progress events arrive up to 10 times a second per batch; they only record what
 * changed. The latest progress is applied at most every 250 ms, and the open batch's items are
 * re-read at most every 250 ms and never more than 1/20 of the time (never once per event), so a
 * 1,000-item batch keeps the window responsive and does not slow the batch.
 */
export const useBatchesStore = create<BatchesStore>((set, get) => ({
  ...initial,

  async loadReview(protocolLocalIds) {
    const ids = [...protocolLocalIds];
    const mine = ++reviewGeneration;
    set({
      review: { protocolLocalIds: ids, status: 'loading', value: null, error: null },
      submitError: null,
    });
    const result = await call('batches.review', { protocolLocalIds: ids });
    if (mine !== reviewGeneration) return;
    set({
      review: result.ok
        ? { protocolLocalIds: ids, status: 'ready', value: result.value, error: null }
        : { protocolLocalIds: ids, status: 'failed', value: null, error: result.error },
    });
  },

  async submit(protocolLocalIds, allowDuplicateOf) {
    if (get().submitting) return null;
    set({ submitting: true, submitError: null });
    const result = await call('batches.submit', {
      protocolLocalIds: [...protocolLocalIds],
      ...(allowDuplicateOf && Object.keys(allowDuplicateOf).length > 0
        ? { allowDuplicateOf: { ...allowDuplicateOf } }
        : {}),
    });
    set({ submitting: false });
    if (result.ok) {
      // Its end is news even if the first event heard of it already says done.
      watchBatch(result.value.batchId);
      return result.value.batchId;
    }
    const { title, detail } = describeError(result.error);
    const reasons = result.error.fieldErrors.map((f) => f.message);
    set({
      submitError: [detail ?? title, ...reasons].join(' '),
    });
    return null;
  },

  async loadList() {
    const mine = ++listGeneration;
    if (get().listState !== 'ready') set({ listState: 'loading', listError: null });
    const result = await call('batches.list', {});
    if (mine !== listGeneration) return;
    if (!result.ok) {
      set({ listState: 'failed', listError: result.error });
      return;
    }
    listStale = false;
    set({ listState: 'ready', listError: null, batches: newestFirst(result.value) });
    const run = get().run;
    const batch = run && result.value.find((b) => b.id === run.batchId);
    if (run && batch) set({ run: { ...run, batch } });
  },

  async openRun(batchId) {
    const mine = ++runGeneration;
    itemsDirty = false;
    set({
      run: { batchId, status: 'loading', error: null, batch: null, items: [] },
      retrying: {},
    });
    const [list, items] = await Promise.all([
      call('batches.list', {}),
      call('batches.items', { batchId }),
    ]);
    if (mine !== runGeneration) return;
    if (!items.ok || !list.ok) {
      const error = items.ok ? (list.ok ? null : list.error) : items.error;
      set({
        run: {
          batchId,
          status: error?.kind === 'not-found' ? 'missing' : 'failed',
          error,
          batch: null,
          items: [],
        },
      });
      return;
    }
    const batch = list.value.find((b) => b.id === batchId) ?? null;
    listGeneration++;
    set({
      batches: newestFirst(list.value),
      listState: 'ready',
      listError: null,
      run: batch
        ? { batchId, status: 'ready', error: null, batch, items: items.value }
        : { batchId, status: 'missing', error: null, batch: null, items: [] },
    });
    // Progress that arrived while reading may be newer than what was read: apply it.
    if (latest.has(batchId)) progressRefresher.request();
    if (itemsDirty) itemsRefresher.request();
  },

  closeRun() {
    runGeneration++;
    itemsDirty = false;
    set({ run: null, retrying: {} });
  },

  pause: () => toggle('batches.pause'),
  resume: () => toggle('batches.continue'),

  async retry(seq, options = {}) {
    const run = get().run;
    if (!run || get().retrying[seq]) return;
    set({ retrying: { ...get().retrying, [seq]: true } });
    const result = await call('batches.retryItem', {
      batchId: run.batchId,
      seq,
      ...(options.sendAnyway ? { sendAnyway: true } : {}),
    });
    const { [seq]: _done, ...rest } = get().retrying;
    set({ retrying: rest });
    if (!result.ok) {
      const { title, detail } = describeError(result.error);
      toast.error(`The order could not be sent again. ${title}`, detail);
      return;
    }
    applyBatch(result.value);
    itemsDirty = true;
    itemsRefresher.flush();
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
    itemsDirty = true;
    itemsRefresher.flush();
  },

  onProgress(event) {
    latest.set(event.batchId, event);
    progressRefresher.request();
    if (get().run?.batchId === event.batchId) {
      itemsDirty = true;
      itemsRefresher.request();
    }
  },

  reset() {
    runGeneration++;
    listGeneration++;
    reviewGeneration++;
    latest.clear();
    itemsDirty = false;
    listStale = false;
    progressRefresher.cancel();
    itemsRefresher.cancel();
    set(initial);
  },
}));

/** Puts a batch as main answered it into the list and the run view. */
function applyBatch(batch: BatchView): void {
  const s = useBatchesStore.getState();
  const known = s.batches.some((b) => b.id === batch.id);
  useBatchesStore.setState({
    batches: known ? s.batches.map((b) => (b.id === batch.id ? batch : b)) : s.batches,
    run: s.run?.batchId === batch.id ? { ...s.run, batch } : s.run,
  });
  latest.delete(batch.id);
}

async function toggle(channel: 'batches.pause' | 'batches.continue'): Promise<void> {
  const s = useBatchesStore.getState();
  if (!s.run || s.toggling) return;
  useBatchesStore.setState({ toggling: true });
  const result = await call(channel, { batchId: s.run.batchId });
  useBatchesStore.setState({ toggling: false });
  if (!result.ok) {
    const { title, detail } = describeError(result.error);
    toast.error(
      channel === 'batches.pause'
        ? `The batch could not be paused. ${title}`
        : `The batch could not be continued. ${title}`,
      detail,
    );
    return;
  }
  applyBatch(result.value);
  itemsDirty = true;
  itemsRefresher.flush();
}

/** The progress gathered since the last time, applied at once; the list re-read if it is stale. */
async function applyProgressEvents(): Promise<void> {
  const store = useBatchesStore;
  const s = store.getState();
  if (latest.size > 0) {
    const applied = applyProgress(s.batches, latest);
    const run = s.run;
    const runProgress = run?.batch ? latest.get(run.batchId) : undefined;
    latest.clear();
    if (applied.stale) listStale = true;
    store.setState({
      batches: applied.batches,
      run:
        run?.batch && runProgress
          ? { ...run, batch: { ...run.batch, progress: runProgress } }
          : run,
    });
  }
  // The list is read again only where it shows (or the run view needs a batch's finishing time).
  if (listStale && (s.listState !== 'idle' || s.run)) await s.loadList();
}

let waitingToBeSeen = false;

/** The open batch's items, read again when they changed; not while the window is hidden. */
async function rereadItems(): Promise<void> {
  const store = useBatchesStore;
  const run = store.getState().run;
  if (!itemsDirty || run?.status !== 'ready') return;
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') {
    if (!waitingToBeSeen) {
      waitingToBeSeen = true;
      document.addEventListener(
        'visibilitychange',
        () => {
          waitingToBeSeen = false;
          itemsRefresher.request();
        },
        { once: true },
      );
    }
    return;
  }
  itemsDirty = false;
  const mine = runGeneration;
  const items = await call('batches.items', { batchId: run.batchId });
  const current = store.getState().run;
  if (mine !== runGeneration || !current) return;
  if (!items.ok) {
    itemsDirty = true; // tried again with the next progress event
    return;
  }
  store.setState({ run: { ...current, items: items.value } });
}
