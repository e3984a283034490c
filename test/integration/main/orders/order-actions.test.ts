import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANCEL_MESSAGES, createOrderActions } from '@main/orders/order-actions';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import { protocolFor } from '@test/support/bulk';
import { testActivity } from '@test/support/activity';

let fx: MainFixture;
beforeEach(async () => {
  fx = await startMainFixture();
});
afterEach(async () => {
  await fx.close();
});

async function storedOrder(sourceId: string) {
  const order = await fx.client.createOrder(protocolFor(sourceId));
  fx.store.orders.upsert(order, { source: 'created' });
  return order.id;
}

describe('cancel order', () => {
  it('cancels a NEW order: CANCELLED on the server and in the store, with an order-status event', async () => {
    const actions = createOrderActions({
      store: fx.store,
      client: fx.client,
      bus: fx.bus,
      activity: testActivity(fx.store),
    });
    const id = await storedOrder('cancel-new');

    const outcome = await actions.cancelOrder(id);

    expect(outcome).toMatchObject({ ok: true, order: { id, status: 'CANCELLED' } });
    expect((await fx.sandbox.api('GET', `/v1/orders/${id}`)).body.status).toBe('CANCELLED');
    expect(fx.store.orders.get(id)?.status).toBe('CANCELLED');
    expect(fx.store.orders.dueForPolling(Date.now() + 365 * 86_400_000, 10)).toHaveLength(0);
    expect(fx.eventsOf('order-status')).toEqual([
      expect.objectContaining({ orderId: id, previous: 'NEW', status: 'CANCELLED' }),
    ]);

    // Cancelling again: the 409 says so, in words for the UI.
    const again = await actions.cancelOrder(id);
    expect(again).toMatchObject({
      ok: false,
      reason: 'already-cancelled',
      message: 'This order is already cancelled.',
    });
    expect(fx.eventsOf('order-status')).toHaveLength(1);
  });

  it('refuses a PROCESSING order with a clear message and leaves the store as it is', async () => {
    const actions = createOrderActions({
      store: fx.store,
      client: fx.client,
      bus: fx.bus,
      activity: testActivity(fx.store),
    });
    const id = await storedOrder('cancel-processing');
    await fx.sandbox.api('POST', `/_sandbox/orders/${id}/advance`, { to: 'PROCESSING' });
    fx.store.orders.upsert(await fx.client.getOrder(id), { source: 'pulled' });
    const before = fx.store.orders.get(id);
    expect(before?.status).toBe('PROCESSING');

    const outcome = await actions.cancelOrder(id);

    expect(outcome).toMatchObject({
      ok: false,
      reason: 'not-cancellable',
      message: 'This order is already being processed and can no longer be cancelled.',
    });
    expect(outcome.ok ? null : outcome.message).toBe(CANCEL_MESSAGES['not-cancellable']);
    expect(fx.store.orders.get(id)).toEqual(before);
    expect(fx.eventsOf('order-status')).toHaveLength(0);
    expect((await fx.sandbox.api('GET', `/v1/orders/${id}`)).body.status).toBe('PROCESSING');
  });

  it('a stale store (still NEW) learns the real status from the refused cancel', async () => {
    const actions = createOrderActions({
      store: fx.store,
      client: fx.client,
      bus: fx.bus,
      activity: testActivity(fx.store),
    });
    const id = await storedOrder('cancel-stale');
    await fx.sandbox.api('POST', `/_sandbox/orders/${id}/advance`, { to: 'FULFILLED' });

    const outcome = await actions.cancelOrder(id);

    expect(outcome).toMatchObject({
      ok: false,
      reason: 'not-cancellable',
      order: { status: 'FULFILLED' },
    });
    expect(fx.store.orders.get(id)?.status).toBe('FULFILLED');
    expect(fx.eventsOf('order-status')).toEqual([
      expect.objectContaining({ orderId: id, previous: 'NEW', status: 'FULFILLED' }),
    ]);
  });

  it('an unknown order is a not-found outcome', async () => {
    const actions = createOrderActions({
      store: fx.store,
      client: fx.client,
      bus: fx.bus,
      activity: testActivity(fx.store),
    });
    expect(await actions.cancelOrder('ord_doesnotexist')).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
  });
});
