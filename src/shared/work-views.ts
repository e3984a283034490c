import { z } from 'zod';
import {
  AppOrder,
  DaysSupply,
  Money,
  OrderStatusRead,
  OrderType,
  ShippingMethod,
  Timestamp,
} from './api';
import { ProtocolInput } from './protocol-input';
import { ProtocolSummaryView } from './protocol-views';
import { BatchProgressEvent } from './core-events';
import { OrderOutcomeView } from './order-outcome';

/**
 * Batches and orders as the window sees them over IPC (the `batches.*` and `orders.*` calls).
 */

export const BatchId = z.object({ batchId: z.uuid() });

export const BatchView = z.object({
  id: z.string(),
  /** Epoch ms. */
  createdAt: z.int(),
  finishedAt: z.int().nullable(),
  concurrency: z.int().min(1),
  /** The name the user gave it; null: none (shown by its start date). */
  name: z.string().nullable(),
  /**
   * What became of its orders as the app knows them now: standing (charged), cancelled and
   * refused apart, with what they cost as the server priced them.
   */
  ordered: OrderOutcomeView,
  /** A batch of one protocol is one order: its patient, for its title; null for a batch. */
  single: z.object({ customerName: z.string(), sourceId: z.string() }).nullable(),
  progress: BatchProgressEvent,
});
export type BatchView = z.infer<typeof BatchView>;

/**
 * An order a new one would repeat (the same patient and content within its supply); `orderId`
 * null: a create of this desk still on its way.
 */
export const RepeatedOrderView = z.object({
  orderId: z.string().nullable(),
  createdAt: Timestamp.nullable(),
  status: z.string().nullable(),
});
export type RepeatedOrderView = z.infer<typeof RepeatedOrderView>;

/** An order found after a batch that may repeat an item's order (of each pair, the later). */
export const PossibleDuplicateView = z.object({
  orderId: z.string(),
  /** The order it may repeat. */
  of: z.string(),
  /** As mirrored; null when not in the mirror yet. */
  status: z.string().nullable(),
  /**
   * This desk made it at the same moment as another desk's order and cancels it by itself:
   * 'pending' (to do), 'done', 'refused' (already processing: a person decides); null: a person
   * decides.
   */
  autoCancel: z.enum(['pending', 'done', 'refused']).nullable(),
});
export type PossibleDuplicateView = z.infer<typeof PossibleDuplicateView>;

/** A possible duplicate a person still has to look at: not one the app cancelled or cancels. */
export const isOpenDuplicate = (d: PossibleDuplicateView): boolean =>
  d.autoCancel !== 'done' && d.autoCancel !== 'pending';

/** Per protocol, the orders the user chose to order again beside (the review showed them). */
const AllowDuplicateOf = z.array(z.string().min(1).max(100)).max(100);

/** One protocol of a batch and what became of its order. */
export const BatchItemView = z.object({
  seq: z.int().min(0),
  protocolLocalId: z.string().nullable(),
  customerName: z.string(),
  sourceId: z.string(),
  state: z.enum(['queued', 'sending', 'in_doubt', 'done', 'rejected']),
  /** The order made for it, once created. */
  orderId: z.string().nullable(),
  /** That order's status as the app knows it now; null until it is mirrored. */
  orderStatus: OrderStatusRead.nullable(),
  attempts: z.int().min(0),
  /** Why it was refused or is waiting, for people. */
  message: z.string().nullable(),
  /** Held back unsent: the orders it would repeat ("Send anyway" sends it). */
  held: z.array(RepeatedOrderView),
  /** Orders found after the batch that may repeat this item's (cancel one while NEW). */
  possibleDuplicates: z.array(PossibleDuplicateView),
});
export type BatchItemView = z.infer<typeof BatchItemView>;

/** A batch's name: trimmed, at most 80 characters; blank is no name. */
export const BatchName = z
  .string()
  .trim()
  .max(80, 'a batch name is at most 80 characters')
  .transform((name) => (name === '' ? undefined : name));

export const SubmitBatch = z.object({
  protocolLocalIds: z.array(z.uuid()).min(1, 'choose at least one protocol').max(5_000),
  concurrency: z.int().min(1).max(16).optional(),
  /** Per protocol the review showed as a possible duplicate and the user included: those orders. */
  allowDuplicateOf: z.record(z.uuid(), AllowDuplicateOf).optional(),
  /** A name for the batch (blank is none). */
  name: BatchName.optional(),
});

/**
 * The protocols a user selected, before they become a batch. `refillOf`: per protocol chosen on
 * Refills due, the last order of the supply it refills (that order and the ones before it are
 * what the refill follows, not repeats).
 */
export const ReviewBatch = SubmitBatch.pick({ protocolLocalIds: true }).extend({
  refillOf: z.record(z.uuid(), z.string().min(1).max(100)).optional(),
});

/** Whether the review could read the server's recent orders (other desks' included). */
export const DuplicateCheckView = z.object({
  checked: z.boolean(),
  /** Why it could not, for people; null when it did. */
  message: z.string().nullable(),
});

/** One product of an order as its confirmation names it. */
export const OrderLineView = z.object({
  productId: z.int(),
  name: z.string(),
  /** Pills a day for a pack product; units per 30 days for an external one. */
  quantity: z.int(),
  external: z.boolean(),
});
export type OrderLineView = z.infer<typeof OrderLineView>;

/** One product of a reviewed order with what it costs (null: no estimate). */
export const ReviewLineView = OrderLineView.extend({ total: Money.nullable() });

/** What a reviewed order holds and how it is priced, for its expanded row. */
export const ReviewDetailView = z.object({
  daysSupply: DaysSupply,
  shippingMethod: ShippingMethod,
  lines: z.array(ReviewLineView),
  /**
   * The price's parts (the lines' totals, after the partner's `discount`, less the volume
   * discount, plus handling fees and shipping); null when there is no estimate.
   */
  price: z
    .object({
      discount: z.string(),
      volumeDiscount: Money,
      fees: Money,
      shipping: Money,
      total: Money,
    })
    .nullable(),
});
export type ReviewDetailView = z.infer<typeof ReviewDetailView>;

/** One selected protocol as the review shows it. */
export const ReviewItemView = z.object({
  localId: z.string(),
  customerName: z.string(),
  sourceId: z.string(),
  /** The order's estimated total; null when the protocol cannot be an order. */
  estimatedTotal: Money.nullable(),
  /** What the order holds and its price; null when the protocol cannot be an order. */
  detail: ReviewDetailView.nullable(),
  /** Worth a look but sent anyway: backordered products, no estimate. */
  warnings: z.array(z.string()),
  /** Why it cannot be an order (left out of the batch); empty when it can. */
  problems: z.array(z.string()),
  /**
   * Why the server will refuse it, as the local catalog says (a discontinued or draft product),
   * in plain words: not sent, not in the total, until the protocol is fixed.
   */
  refusals: z.array(z.string()),
  /**
   * Orders of the patient with the same content within its supply (other desks' included): it
   * is left out unless the user includes it.
   */
  repeats: z.array(RepeatedOrderView),
  /** An earlier protocol of the review with the same patient and content (left out likewise). */
  sameAs: z.string().nullable(),
  /**
   * A refill chosen on Refills due: the orders of the supply it follows (sent beside them, not
   * held), and how many days before it is due it is sent (0: due).
   */
  refill: z.object({ of: z.array(RepeatedOrderView), daysEarly: z.int().min(0) }).nullable(),
});
export type ReviewItemView = z.infer<typeof ReviewItemView>;

/** Whether the item can be sent: an order the local catalog does not say will be refused. */
export const isSendableInReview = (item: ReviewItemView): boolean =>
  item.problems.length === 0 && item.refusals.length === 0;

/** Whether a review leaves the item out unless the user includes it (a possible duplicate). */
export const isHeldInReview = (item: ReviewItemView): boolean =>
  item.repeats.length > 0 || item.sameAs !== null;

export const BatchReviewView = z.object({
  items: z.array(ReviewItemView),
  /**
   * The sum of the included protocols' estimates; null when one of them has none (the partner's
   * discount was never read, or a product is not in the local catalog): never a wrong total.
   */
  estimatedTotal: Money.nullable(),
  /** Why there is no total, for people; null when there is one. */
  totalUnknown: z.string().nullable(),
  /** True when the estimate is the server's own pricing (the embedded sandbox). */
  exact: z.boolean(),
  /** The check for orders the patients already have; items it flags are not in the total. */
  duplicateCheck: DuplicateCheckView,
});
export type BatchReviewView = z.infer<typeof BatchReviewView>;

/**
 * One order before it is placed (Order now, a new order): the review of a batch of one, and what
 * the order holds, for its confirmation.
 */
export const OrderReviewView = BatchReviewView.extend({
  order: z.object({
    customerName: z.string(),
    sourceId: z.string(),
    daysSupply: DaysSupply,
    shippingMethod: ShippingMethod,
    orderType: OrderType,
    lines: z.array(OrderLineView),
  }),
});
export type OrderReviewView = z.infer<typeof OrderReviewView>;

/**
 * A rejected item of a batch, sent again from its protocol's current draft; `sendAnyway`: an
 * item held back as a possible duplicate, sent as it was.
 */
export const RetryBatchItem = BatchId.extend({
  seq: z.int().min(0),
  sendAnyway: z.boolean().optional(),
});

/**
 * One order, exactly once like a batch item: from a saved protocol, from scratch, or a past order
 * again;
 * `allowDuplicateOf`: the orders its review showed it repeating, which the user ordered beside.
 */
export const CreateOrder = z.discriminatedUnion('from', [
  z.object({
    from: z.literal('protocol'),
    protocolLocalId: z.uuid(),
    allowDuplicateOf: AllowDuplicateOf.optional(),
  }),
  z.object({
    from: z.literal('scratch'),
    draft: ProtocolInput,
    allowDuplicateOf: AllowDuplicateOf.optional(),
  }),
  /** A past order of the mirror ordered again as it was (its patient, supply, shipping, lines). */
  z.object({
    from: z.literal('order'),
    orderId: z.string().min(1).max(100),
    allowDuplicateOf: AllowDuplicateOf.optional(),
  }),
]);
export type CreateOrder = z.input<typeof CreateOrder>;

/** Which orders match: the queue's search and filters. */
export const OrderMatch = z.object({
  /** Words of the patient's name, sourceId or the order id; every word must match. */
  search: z.string().max(200, 'at most 200 characters').optional(),
  /** The patient's sourceId, exactly. */
  sourceId: z.string().min(1).max(100).optional(),
  createdFrom: z.iso.datetime({ offset: true }).optional(),
  createdTo: z.iso.datetime({ offset: true }).optional(),
});
export type OrderMatch = z.input<typeof OrderMatch>;

export const OrderQuery = OrderMatch.extend({
  /** Known statuses and those the server sent that the app does not know (e.g. ON_HOLD). */
  statuses: z.array(OrderStatusRead).max(50).optional(),
  limit: z.int().min(1).max(500).default(100),
  offset: z.int().min(0).default(0),
});
export type OrderQuery = z.input<typeof OrderQuery>;

/** The queue's statuses, dates and search without paging: what an export covers. */
export const OrderExportQuery = OrderQuery.omit({ limit: true, offset: true }).extend({
  /**
   * Only these orders (the queue's selection), newest first; the search and filters then play no
   * part. Every one must be in the local mirror.
   */
  orderIds: z
    .array(z.string().min(1).max(100))
    .min(1, 'at least one order')
    .max(5000, 'at most 5,000 orders')
    .optional(),
});
export type OrderExportQuery = z.input<typeof OrderExportQuery>;

export const OrderPageView = z.object({
  orders: z.array(AppOrder),
  /** How many orders match in all. */
  total: z.int().min(0),
  /** Of the page's orders, those that may repeat another order: id → the order repeated. */
  possibleDuplicateOf: z.record(z.string(), z.string()),
});

/**
 * Orders matching the search and dates, per status: every known status, zero included, and each
 * status the app does not know that some order has.
 */
export const OrderCountsView = z.object({
  counts: z.record(OrderStatusRead, z.int().min(0)),
  total: z.int().min(0),
});
export type OrderCountsView = z.infer<typeof OrderCountsView>;

/** A status the app saw an order take, and when it saw it. */
export const OrderStatusChangeView = z.object({
  status: OrderStatusRead,
  previous: OrderStatusRead.nullable(),
  seenAt: Timestamp,
});
export type OrderStatusChangeView = z.infer<typeof OrderStatusChangeView>;

export const RefillsQuery = z.object({ withinDays: z.int().min(0).max(365) });

/** A protocol whose patient's last known order runs out soon. */
export const RefillView = z.object({
  protocol: ProtocolSummaryView,
  lastOrderId: z.string(),
  lastOrderedAt: Timestamp,
  daysSupply: DaysSupply,
  runsOutAt: Timestamp,
  /** Whole days until it runs out; negative when it already has. */
  daysLeft: z.int(),
  /** Days until the refill is due (0: due now); ordered now, it is that many days early. */
  daysEarly: z.int().min(0),
});
export type RefillView = z.infer<typeof RefillView>;

export const RefillsView = z.object({
  due: z.array(RefillView),
  /** Protocols with no order of their content (products, quantities, doses) this app knows of. */
  neverOrdered: z.array(ProtocolSummaryView),
});
export type RefillsView = z.infer<typeof RefillsView>;

export const OrderId = z.object({ orderId: z.string().min(1).max(100) });

/** The protocol an order was made from here (null: pulled from the server, or made from scratch). */
export const OrderProtocolView = z.object({
  protocol: z.object({ localId: z.string(), deleted: z.boolean() }).nullable(),
});

/** A cancel: done, or refused with a reason people can read (the order as the server has it). */
export const CancelOutcome = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), order: AppOrder }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['already-cancelled', 'not-cancellable', 'not-found']),
    message: z.string(),
    order: AppOrder.nullable(),
  }),
]);
