import type { AppState, IpcEventPayload } from '@shared/ipc';

/**
 * What deserves a notification, decided from main's events alone (no DOM, no stores): a shipped
 * or cancelled order, a finished batch, an in-doubt change settled, possible duplicate orders. The events only report
 * changes, but some of them are first sightings rather than news (the first pull after start
 * brings in orders this window never saw move; a batch can first be heard of already done), and
 * those are not announced. Each piece of news is announced once.
 */

export interface Notice {
  /** What makes it the same news (a repeated event announces nothing). */
  key: string;
  title: string;
  body: string;
  /** Where clicking it goes (a hash route). */
  route: string;
  kind: 'success' | 'info';
  /** Later news on the same topic (a count that grew) replaces this one where it is shown. */
  topic?: string;
}

type OrderStatusEvent = IpcEventPayload<'order-status'>;
type BatchProgressEvent = IpcEventPayload<'batch-progress'>;
type Outbox = AppState['outbox'];

const ORDER_NEWS: Partial<Record<OrderStatusEvent['status'], string>> = {
  SHIPPED: 'Order shipped',
  CANCELLED: 'Order cancelled',
};

const SETTLED_TITLE = 'A change the server had not confirmed is settled';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a finished batch says: a batch of one is one order (Order now, Order again), told as what
 * became of it; a batch says its counts. The body never repeats the title.
 */
function finishedNews(event: BatchProgressEvent): Pick<Notice, 'title' | 'body'> {
  const refused = event.rejected - event.held;
  if (event.total === 1) {
    if (event.created === 1)
      return { title: 'Order created', body: 'The server has it; it is followed until it ships.' };
    if (event.held === 1)
      return {
        title: 'Order held back',
        body: 'Not sent: the patient already has an order with the same products and doses.',
      };
    return { title: 'Order refused', body: 'Nothing was ordered: open it to see why.' };
  }
  const held = event.held > 0 ? `, ${event.held} held back as possible duplicates` : '';
  return {
    title: 'Batch finished',
    body: `${plural(event.created, 'order')} created, ${refused} rejected${held}.`,
  };
}

/** Remembers what it has seen; one per window (and a fresh one for a new connection). */
export class NotificationDecider {
  private readonly announced = new Set<string>();
  /** Batches seen, with their last state and in-doubt count. */
  private readonly batches = new Map<
    string,
    {
      state: BatchProgressEvent['state'];
      inDoubt: number;
      possibleDuplicates: number;
      repeatsCancelled: number;
    }
  >();
  /** Batches this window started: their first event may already say done. */
  private readonly startedHere = new Set<string>();
  private outbox: Outbox | null = null;
  /** Numbers the in-doubt drops (each is its own news). */
  private drops = 0;

  /** The starting point of the outbox counts (app.state at load): a later drop is news. */
  seedOutbox(outbox: Outbox): void {
    this.outbox = { ...outbox };
  }

  /** A batch submitted from this window: its end is news even if its first event says done. */
  watchBatch(batchId: string): void {
    this.startedHere.add(batchId);
  }

  /**
   * A cancel this window reports itself (a bulk cancel's own per-order report): its CANCELLED
   * event is not announced as well, so twenty cancels are not twenty notifications. Answers how
   * to take that back, for a cancel that did not happen (refused, failed).
   */
  reportCancelHere(orderId: string): () => void {
    const key = `order:${orderId}:CANCELLED`;
    if (this.announced.has(key)) return () => undefined;
    this.announced.add(key);
    return () => {
      this.announced.delete(key);
    };
  }

  orderStatus(event: OrderStatusEvent): Notice | null {
    const title = ORDER_NEWS[event.status];
    // previous null: an order this app had not stored before (a pull of the history), not a move.
    if (!title || event.previous === null || event.previous === event.status) return null;
    // The app's own cancel of a repeat: its batch's notice counts them all.
    if (event.repeatOf !== undefined) return null;
    const { firstName, lastName } = event.order.customer;
    const who = `${firstName} ${lastName}`.trim();
    const carrier = event.order.fulfillmentInfo?.carrier;
    const body =
      event.status === 'SHIPPED'
        ? `${event.orderId} for ${who} is on its way${carrier ? ` with ${carrier}` : ''}.`
        : `${event.orderId} for ${who} will not be sent.`;
    return this.once({
      key: `order:${event.orderId}:${event.status}`,
      title,
      body,
      route: `/orders/${encodeURIComponent(event.orderId)}`,
      kind: event.status === 'SHIPPED' ? 'success' : 'info',
    });
  }

  batchProgress(event: BatchProgressEvent): Notice[] {
    const before = this.batches.get(event.batchId);
    this.batches.set(event.batchId, {
      state: event.state,
      inDoubt: event.inDoubt,
      possibleDuplicates: event.possibleDuplicates,
      repeatsCancelled: event.repeatsCancelled,
    });
    const route = `/batches/${encodeURIComponent(event.batchId)}`;
    const notices: Notice[] = [];
    if (before && event.inDoubt < before.inDoubt) {
      const settled = before.inDoubt - event.inDoubt;
      notices.push({
        key: `batch-settled:${event.batchId}:${this.drops++}`,
        title: SETTLED_TITLE,
        body: `${plural(settled, 'order')} of a batch ${settled === 1 ? 'was' : 'were'} checked with the server.`,
        route,
        kind: 'info',
      });
    }
    const finished =
      event.state === 'done' &&
      (before ? before.state !== 'done' : this.startedHere.has(event.batchId));
    if (finished) {
      notices.push({
        key: `batch-done:${event.batchId}`,
        ...finishedNews(event),
        route,
        kind: event.rejected > 0 ? 'info' : 'success',
      });
    }
    // Found after the batch (a late answer, another desk): news whenever more are found.
    if (event.possibleDuplicates > (before?.possibleDuplicates ?? 0)) {
      const n = event.possibleDuplicates;
      notices.push({
        key: `batch-duplicates:${event.batchId}:${n}`,
        topic: `batch-duplicates:${event.batchId}`,
        title: 'Possible duplicate orders',
        body: `${plural(n, 'order')} of a batch may repeat another order of the same patient: check and cancel one while it is new.`,
        route,
        kind: 'info',
      });
    }
    // Another desk ordered the same patients at the same moment: this desk cancelled its repeats.
    if (event.repeatsCancelled > (before?.repeatsCancelled ?? 0)) {
      const n = event.repeatsCancelled;
      notices.push({
        key: `batch-repeats-cancelled:${event.batchId}:${n}`,
        topic: `batch-repeats-cancelled:${event.batchId}`,
        title: 'Repeat orders cancelled',
        body: `${plural(n, 'order')} of a batch ${n === 1 ? 'was' : 'were'} cancelled by Order Desk: another desk ordered the same for ${n === 1 ? 'that patient' : 'those patients'} at the same moment, and its order is kept.`,
        route,
        kind: 'info',
      });
    }
    return notices.flatMap((n) => this.once(n) ?? []);
  }

  outboxCount(event: Outbox): Notice | null {
    const before = this.outbox;
    this.outbox = { ...event };
    if (!before || event.inDoubt >= before.inDoubt) return null;
    const settled = before.inDoubt - event.inDoubt;
    return {
      // A drop is news each time: the count can go up and come down again.
      key: `outbox-settled:${this.drops++}`,
      title: SETTLED_TITLE,
      body: `${plural(settled, 'protocol change')} ${settled === 1 ? 'was' : 'were'} checked with the server.`,
      route: '/protocols',
      kind: 'info',
    };
  }

  private once(notice: Notice): Notice | null {
    if (this.announced.has(notice.key)) return null;
    this.announced.add(notice.key);
    return notice;
  }
}
