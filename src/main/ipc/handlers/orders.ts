import type { OrderStatusRead } from '@shared/api';
import type { IpcParsedArgs } from '@shared/ipc';
import type { OrderMatch } from '@shared/work-views';
import { BatchRejectedError, problemPath } from '@main/orders/order-requests';
import { protocolOfOrder } from '@main/orders/order-job';
import { createOrder, reviewOrder } from '@main/bulk/create-order';
import { exportOrdersCsv, exportSelectedOrdersCsv } from '@main/orders/order-export';
import { draftFromOrder } from '@main/orders/reorder';
import { IpcFailure, describeFieldErrors } from '../errors';
import { pricingTerms, sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/**
 * orders.*: the queue, its counts and CSV export; one order, its timeline; reviewing and creating
 * one (bulk/create-order.ts; a past order again: orders/reorder.ts), refreshing and cancelling
 * one.
 */
export function ordersHandlers(deps: IpcHandlerDeps): AreaHandlers<'orders'> {
  const { core } = deps;
  const withSession = sessionWrapper(core);

  /**
   * orders.review and orders.create of something that is not a complete order: nothing is sent,
   * and each reason is on its field (a scratch draft's under `draft`, a protocol's on its own).
   */
  const notAnOrder = (input: OrderInput, error: BatchRejectedError): IpcFailure => {
    if (input.from === 'protocol' && !core.store.protocols.get(input.protocolLocalId))
      return new IpcFailure('not-found', 'This protocol no longer exists here.');
    const prefix = input.from === 'scratch' ? ['draft'] : [];
    const fieldErrors = error.rejected
      .flatMap((r) => r.problems)
      .map((p) => ({ path: [...prefix, ...problemPath(p.path)], message: p.message }));
    return new IpcFailure(
      'validation',
      `This is not a complete order yet, so nothing was sent: ${describeFieldErrors(fieldErrors)}.`,
      fieldErrors,
    );
  };

  /**
   * orders.review's and orders.create's argument as bulk/create-order.ts takes it: a past order
   * becomes the draft of one order from scratch (orders/reorder.ts).
   */
  const orderInput = (input: OrderInput) => {
    if (input.from === 'protocol') return { protocolLocalId: input.protocolLocalId };
    if (input.from === 'scratch') return { draft: input.draft };
    const order = core.store.orders.get(input.orderId);
    if (!order)
      throw new IpcFailure(
        'not-found',
        `Order ${input.orderId} is not among the orders this app knows.`,
      );
    return { draft: draftFromOrder(order) };
  };

  return {
    'orders.list': withSession(async ({ limit, offset, ...query }) => {
      const filter = queueFilter(query);
      const orders = core.store.orders.list({ ...filter, limit, offset });
      return {
        orders,
        total: core.store.orders.count(filter),
        possibleDuplicateOf: Object.fromEntries(
          core.store.orders.duplicateOf(orders.map((o) => o.id)),
        ),
      };
    }),
    'orders.exportCsv': withSession(async ({ orderIds, ...query }, s) => {
      const exported = orderIds
        ? exportSelectedOrdersCsv(core.store.orders, orderIds)
        : exportOrdersCsv(core.store.orders, queueFilter(query));
      if ('missing' in exported)
        throw new IpcFailure(
          'not-found',
          `Not among the orders this app knows, so nothing was exported: ${exported.missing.join(', ')}.`,
        );
      const { touched, ...file } = exported;
      s.activity.record({
        action: 'csv-exported',
        subjects: touched,
        detail: {
          what: 'orders',
          count: file.rows,
          filters: orderIds
            ? ['orderIds']
            : Object.entries(query)
                .filter(([, value]) => value !== undefined && value !== '')
                .map(([key]) => key),
        },
      });
      return file;
    }),
    'orders.counts': withSession(async (match) => {
      const counts = core.store.orders.countByStatus(orderMatch(match));
      return {
        counts,
        total: Object.values(counts).reduce((a, n) => a + n, 0),
      };
    }),
    'orders.get': withSession(async ({ orderId }) => {
      const order = core.store.orders.get(orderId);
      if (!order) throw new IpcFailure('not-found', `Order ${orderId} is not in the local mirror.`);
      return order;
    }),
    'orders.protocol': withSession(async ({ orderId }) => {
      const localId = protocolOfOrder(core.store.db, orderId);
      const protocol = localId === null ? null : core.store.protocols.get(localId);
      return {
        protocol: protocol ? { localId: protocol.localId, deleted: protocol.deleted } : null,
      };
    }),
    'orders.timeline': withSession(async ({ orderId }) => {
      if (!core.store.orders.get(orderId))
        throw new IpcFailure('not-found', `Order ${orderId} is not in the local mirror.`);
      return core.store.orders.timeline(orderId).map((c) => ({
        status: c.status,
        previous: c.previous,
        seenAt: new Date(c.seenAt).toISOString(),
      }));
    }),
    'orders.review': withSession(async (input, s) => {
      await pricingTerms(deps);
      try {
        return await reviewOrder(core.store, orderInput(input), {
          embedded: s.connection.kind === 'embedded',
          duplicates: s.duplicates,
        });
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        throw notAnOrder(input, error);
      }
    }),
    'orders.create': withSession(async (input, s) => {
      try {
        return {
          batchId: createOrder(
            { store: core.store, bulk: s.bulk },
            orderInput(input),
            input.allowDuplicateOf ? { allowDuplicateOf: input.allowDuplicateOf } : {},
          ),
        };
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        throw notAnOrder(input, error);
      }
    }),
    'orders.refresh': withSession(async ({ orderId }, s) => s.orders.refreshOrder(orderId)),
    'orders.cancel': withSession(async ({ orderId }, s) => s.orders.cancelOrder(orderId)),
  };
}

/** The queue's search and filters, without the keys the caller left out. */
const orderMatch = ({ search, sourceId, createdFrom, createdTo }: OrderMatch) => ({
  ...(search ? { search } : {}),
  ...(sourceId ? { sourceId } : {}),
  ...(createdFrom ? { createdFrom } : {}),
  ...(createdTo ? { createdTo } : {}),
});

/** The queue's filter as orders.list applies it (orders.exportCsv applies exactly this too). */
const queueFilter = ({ statuses, ...match }: OrderMatch & { statuses?: OrderStatusRead[] }) => ({
  ...orderMatch(match),
  ...(statuses ? { statuses } : {}),
});

type OrderInput = IpcParsedArgs<'orders.create'>;
