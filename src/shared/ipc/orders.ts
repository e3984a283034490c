import { z } from 'zod';
import { AppOrder } from '../api';
import { CsvFile } from '../csv-file';
import {
  CancelOutcome,
  CreateOrder,
  OrderCountsView,
  OrderExportQuery,
  OrderId,
  OrderMatch,
  OrderPageView,
  OrderProtocolView,
  OrderQuery,
  OrderReviewView,
  OrderStatusChangeView,
} from '../work-views';
import { call, read, type AreaChannels } from './channel';

/**
 * orders.*: the queue, its counts and CSV export; one order, its protocol and timeline; reviewing
 * and creating one, refreshing and cancelling one.
 */
export const ordersChannels = {
  /** Orders of the local mirror, newest first. */
  'orders.list': read(OrderQuery, OrderPageView, ['orders']),
  'orders.counts': read(OrderMatch, OrderCountsView, ['orders']),
  /** Every order the queue's filters and search match (no paging), as CSV, newest first. */
  'orders.exportCsv': call(OrderExportQuery, CsvFile),
  'orders.get': read(OrderId, AppOrder, ['orders']),
  /** The protocol the order was made from on this desk, if it was. */
  'orders.protocol': read(OrderId, OrderProtocolView, ['orders', 'jobs', 'protocols']),
  /** The statuses this app saw the order take, oldest first. */
  'orders.timeline': read(OrderId, z.array(OrderStatusChangeView), ['orders']),
  /** What orders.create of the same argument would send, for its confirmation; sends nothing. */
  'orders.review': call(CreateOrder, OrderReviewView),
  /** One order, sent exactly once as a batch of one; follow it with batches.items. */
  'orders.create': call(CreateOrder, z.object({ batchId: z.string() })),
  /** Reads the order from the server now (the poller would later). */
  'orders.refresh': call(OrderId, AppOrder),
  'orders.cancel': call(OrderId, CancelOutcome),
} as const satisfies AreaChannels<'orders'>;
