import { describe, expect, it } from 'vitest';
import { AppOrder, type OrderStatus } from '@shared/api';
import type { IpcEventPayload } from '@shared/ipc';
import { NotificationDecider } from '@renderer/lib/notify';

const order = (status: OrderStatus, carrier: string | null = null): AppOrder =>
  AppOrder.parse({
    id: 'ord_1',
    discount: '0.00',
    daysSupply: 30,
    orderType: 'ONE_TIME',
    shippingMethod: 'STANDARD',
    status,
    statusPrecision: 'exact',
    fulfillmentInfo: carrier
      ? {
          carrier,
          trackingNumber: '1Z',
          trackingStatus: null,
          trackingUrl: null,
          checkpoints: null,
        }
      : null,
    lineItems: [],
    customer: {
      sourceId: 'patient-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: null,
      phone: null,
      address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
    },
    subtotalPrice: '10.00',
    totalDiscount: '0.00',
    totalFees: '0.00',
    totalShipping: '0.00',
    totalVolumeDiscount: '0.00',
    totalPrice: '10.00',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  });

const statusEvent = (
  previous: OrderStatus | null,
  status: OrderStatus,
  carrier: string | null = null,
): IpcEventPayload<'order-status'> => ({
  orderId: 'ord_1',
  previous,
  status,
  order: order(status, carrier),
});

const progress = (
  state: 'running' | 'paused' | 'done',
  counts: Partial<{
    inDoubt: number;
    total: number;
    created: number;
    rejected: number;
    held: number;
    possibleDuplicates: number;
    repeatsCancelled: number;
  }> = {},
  batchId = 'batch_1',
): IpcEventPayload<'batch-progress'> => ({
  batchId,
  state,
  total: counts.total ?? 3,
  queued: 0,
  sending: 0,
  inDoubt: counts.inDoubt ?? 0,
  created: counts.created ?? 0,
  rejected: counts.rejected ?? 0,
  held: counts.held ?? 0,
  possibleDuplicates: counts.possibleDuplicates ?? 0,
  repeatsCancelled: counts.repeatsCancelled ?? 0,
});

const outbox = (inDoubt: number) => ({ pending: 0, inDoubt, conflicts: 0 });

describe('NotificationDecider: orders', () => {
  it('announces an order that moves to SHIPPED, with its carrier and a route to it', () => {
    const notice = new NotificationDecider().orderStatus(statusEvent('FILLED', 'SHIPPED', 'UPS'));
    expect(notice).toMatchObject({
      title: 'Order shipped',
      body: 'ord_1 for Ada Lovelace is on its way with UPS.',
      route: '/orders/ord_1',
      kind: 'success',
    });
  });

  it('announces an order that moves to CANCELLED', () => {
    const notice = new NotificationDecider().orderStatus(statusEvent('NEW', 'CANCELLED'));
    expect(notice).toMatchObject({
      title: 'Order cancelled',
      body: 'ord_1 for Ada Lovelace will not be sent.',
    });
  });

  it('says nothing of the other statuses', () => {
    const d = new NotificationDecider();
    for (const [from, to] of [
      ['NEW', 'PROCESSING'],
      ['PROCESSING', 'DISPENSING'],
      ['SHIPPED', 'DELIVERED'],
    ] as const)
      expect(d.orderStatus(statusEvent(from, to))).toBeNull();
  });

  it('says nothing of an order first seen already shipped (a pull of the history)', () => {
    expect(new NotificationDecider().orderStatus(statusEvent(null, 'SHIPPED'))).toBeNull();
    expect(new NotificationDecider().orderStatus(statusEvent(null, 'CANCELLED'))).toBeNull();
  });

  it('does not announce a cancel this window reports itself, unless it is taken back', () => {
    const d = new NotificationDecider();
    d.reportCancelHere('ord_1');
    expect(d.orderStatus(statusEvent('NEW', 'CANCELLED'))).toBeNull();
    const other = new NotificationDecider();
    const undo = other.reportCancelHere('ord_1');
    undo();
    expect(other.orderStatus(statusEvent('NEW', 'CANCELLED'))).not.toBeNull();
    // Only the cancel: the same order shipping is still news.
    const shipped = new NotificationDecider();
    shipped.reportCancelHere('ord_1');
    expect(shipped.orderStatus(statusEvent('FILLED', 'SHIPPED'))).not.toBeNull();
  });

  it('announces the same shipment once', () => {
    const d = new NotificationDecider();
    expect(d.orderStatus(statusEvent('FILLED', 'SHIPPED'))).not.toBeNull();
    expect(d.orderStatus(statusEvent('FILLED', 'SHIPPED'))).toBeNull();
    expect(d.orderStatus(statusEvent('SHIPPED', 'SHIPPED'))).toBeNull();
  });
});

describe('NotificationDecider: batches', () => {
  it('announces a batch it saw running when it is done, once, with its counts', () => {
    const d = new NotificationDecider();
    expect(d.batchProgress(progress('running'))).toEqual([]);
    const [done, ...rest] = d.batchProgress(progress('done', { created: 2, rejected: 1 }));
    expect(rest).toEqual([]);
    expect(done).toMatchObject({
      title: 'Batch finished',
      body: '2 orders created, 1 rejected.',
      route: '/batches/batch_1',
    });
    expect(d.batchProgress(progress('done', { created: 2, rejected: 1 }))).toEqual([]);
  });

  it('tells a batch of one as one order, whose body never repeats its title', () => {
    const told = (counts: Parameters<typeof progress>[1]) => {
      const d = new NotificationDecider();
      d.watchBatch('batch_1');
      const [notice] = d.batchProgress(progress('done', { total: 1, ...counts }));
      expect(notice!.body.startsWith(notice!.title)).toBe(false);
      return { title: notice!.title, body: notice!.body };
    };
    expect(told({ created: 1 })).toEqual({
      title: 'Order created',
      body: 'The server has it; it is followed until it ships.',
    });
    expect(told({ rejected: 1 })).toEqual({
      title: 'Order refused',
      body: 'Nothing was ordered: open it to see why.',
    });
    expect(told({ rejected: 1, held: 1 }).title).toBe('Order held back');
  });

  it('says nothing of a batch whose first event says done (state replayed), unless started here', () => {
    const d = new NotificationDecider();
    expect(d.batchProgress(progress('done', { created: 3 }))).toEqual([]);
    d.watchBatch('batch_2');
    expect(d.batchProgress(progress('done', { created: 1 }, 'batch_2'))).toHaveLength(1);
  });

  it('a paused batch that carries on and finishes is announced once', () => {
    const d = new NotificationDecider();
    d.batchProgress(progress('running'));
    d.batchProgress(progress('paused'));
    d.batchProgress(progress('running'));
    expect(d.batchProgress(progress('done', { created: 3 }))).toHaveLength(1);
  });

  it('announces an in-doubt item settled: each drop of the count, never a rise', () => {
    const d = new NotificationDecider();
    expect(d.batchProgress(progress('running', { inDoubt: 2 }))).toEqual([]);
    const [settled] = d.batchProgress(progress('running', { inDoubt: 1, created: 1 }));
    expect(settled).toMatchObject({
      title: 'A change the server had not confirmed is settled',
      body: '1 order of a batch was checked with the server.',
    });
    expect(d.batchProgress(progress('running', { inDoubt: 2, created: 1 }))).toEqual([]);
    const both = d.batchProgress(progress('done', { inDoubt: 0, created: 3 }));
    expect(both.map((n) => n.title)).toEqual([
      'A change the server had not confirmed is settled',
      'Batch finished',
    ]);
    expect(both[0]!.body).toBe('2 orders of a batch were checked with the server.');
  });
});

describe('NotificationDecider: possible duplicates', () => {
  it('announces possible duplicates found after a batch, each time more are found, once each', () => {
    const d = new NotificationDecider();
    d.batchProgress(progress('done', { created: 3 }));
    const [found] = d.batchProgress(progress('done', { created: 3, possibleDuplicates: 1 }));
    expect(found).toMatchObject({
      title: 'Possible duplicate orders',
      body: '1 order of a batch may repeat another order of the same patient: check and cancel one while it is new.',
      route: '/batches/batch_1',
    });
    expect(d.batchProgress(progress('done', { created: 3, possibleDuplicates: 1 }))).toEqual([]);
    expect(d.batchProgress(progress('done', { created: 3, possibleDuplicates: 2 }))).toHaveLength(
      1,
    );
  });

  it("tells of the app's cancels of repeats once per batch, a growing count replacing the last", () => {
    const d = new NotificationDecider();
    d.batchProgress(progress('done', { created: 3 }));
    const [two] = d.batchProgress(progress('done', { created: 3, repeatsCancelled: 2 }));
    const [three] = d.batchProgress(progress('done', { created: 3, repeatsCancelled: 3 }));
    expect(two).toMatchObject({ title: 'Repeat orders cancelled', topic: three!.topic });
    expect(three!.body).toMatch(/^3 orders of a batch were cancelled by Order Desk/);
    // Each order the app cancelled as a repeat is not announced on its own as well.
    expect(d.orderStatus({ ...statusEvent('NEW', 'CANCELLED'), repeatOf: 'ord_0' })).toBeNull();
    expect(d.orderStatus(statusEvent('NEW', 'CANCELLED'))).toMatchObject({
      title: 'Order cancelled',
    });
  });
});

describe('NotificationDecider: the outbox', () => {
  it('announces a drop of the in-doubt count from where app.state started it', () => {
    const d = new NotificationDecider();
    d.seedOutbox(outbox(2));
    expect(d.outboxCount(outbox(1))).toMatchObject({
      title: 'A change the server had not confirmed is settled',
      body: '1 protocol change was checked with the server.',
      route: '/protocols',
    });
    expect(d.outboxCount(outbox(1))).toBeNull();
    expect(d.outboxCount(outbox(3))).toBeNull();
    expect(d.outboxCount(outbox(1))?.body).toBe('2 protocol changes were checked with the server.');
  });

  it('takes its first event as the starting point when it was not seeded', () => {
    const d = new NotificationDecider();
    expect(d.outboxCount(outbox(3))).toBeNull();
    expect(d.outboxCount(outbox(0))).not.toBeNull();
  });

  it('says nothing when only pending or conflicts change', () => {
    const d = new NotificationDecider();
    d.seedOutbox({ pending: 5, inDoubt: 1, conflicts: 2 });
    expect(d.outboxCount({ pending: 0, inDoubt: 1, conflicts: 0 })).toBeNull();
  });
});
