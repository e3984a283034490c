import { afterEach, describe, expect, it } from 'vitest';
import { OrderPoller } from '@main/orders/order-poller';
import { Presence } from '@main/presence';
import type { Timers } from '@main/timers';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import { protocolFor } from '@test/support/bulk';
import { countingFetch, fakeClock } from '@test/support/client-harness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let fx: MainFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

/** Sandbox, store and poller on one fake clock; every HTTP call counted. */
async function setup(options: { budgetPerMinute?: number; strategy?: 'hybrid' | 'get' } = {}) {
  const clock = fakeClock(Date.parse('2030-01-15T09:00:00Z'));
  const fetch = countingFetch();
  fx = await startMainFixture({
    sandboxOptions: { tokenTtl: 10 * 365 * 24 * 3600 },
    sandboxRuntime: { clock },
    fetch,
    clock,
  });
  const poller = new OrderPoller({
    store: fx.store,
    client: fx.client,
    bus: fx.bus,
    clock,
    budgetPerMinute: options.budgetPerMinute ?? 60,
    ...(options.strategy ? { strategy: options.strategy } : {}),
  });
  const f = fx;
  /** Creates an order on the server now (fake time) and stores it as created here. */
  const createOrder = async (sourceId: string) => {
    const order = await f.client.createOrder(protocolFor(sourceId));
    f.store.orders.upsert(order, { source: 'created' });
    return order.id;
  };
  const advanceOnServer = async (id: string, to: string) => {
    const res = await f.sandbox.api('POST', `/_sandbox/orders/${id}/advance`, { to });
    expect(res.status).toBe(200);
  };
  const v1Requests = () => fetch.calls.filter((c) => c.path.startsWith('/v1/')).length;
  const getsOf = (id: string) => fetch.count('GET', `/v1/orders/${id}`);
  return { fx: f, clock, fetch, poller, createOrder, advanceOnServer, v1Requests, getsOf };
}

describe('order poller', () => {
  it('notices a status change at the next scheduled poll, stores it and emits order-status', async () => {
    const t = await setup();
    const young = await t.createOrder('poll-young');
    const first = await t.poller.pollOnce();
    expect(first).toMatchObject({ due: 1, polled: 1, changed: 0 });

    await t.advanceOnServer(young, 'PROCESSING');
    t.clock.advance(30_000);
    const early = await t.poller.pollOnce();
    expect(early).toMatchObject({ due: 0, gets: 0, listPages: 0 });
    expect(t.fx.store.orders.get(young)?.status).toBe('NEW');

    t.clock.advance(30_000); // one minute after the last poll: a young order is due every minute
    const report = await t.poller.pollOnce();
    expect(report).toMatchObject({ due: 1, polled: 1, changed: 1 });
    expect(t.fx.store.orders.get(young)?.status).toBe('PROCESSING');
    expect(t.fx.eventsOf('order-status')).toEqual([
      expect.objectContaining({ orderId: young, previous: 'NEW', status: 'PROCESSING' }),
    ]);
  });

  it('backs off with age: a two-day-old order is polled hourly', async () => {
    const t = await setup();
    const old = await t.createOrder('poll-old');
    t.clock.advance(2 * 24 * HOUR);
    await t.poller.pollOnce(); // due since it was stored
    expect(t.getsOf(old)).toBe(1);
    await t.advanceOnServer(old, 'PROCESSING');
    for (let m = 1; m < 60; m++) {
      t.clock.advance(MINUTE);
      await t.poller.pollOnce();
    }
    expect(t.getsOf(old)).toBe(1);
    expect(t.fx.store.orders.get(old)?.status).toBe('NEW');
    t.clock.advance(MINUTE);
    await t.poller.pollOnce();
    expect(t.getsOf(old)).toBe(2);
    expect(t.fx.store.orders.get(old)?.status).toBe('PROCESSING');
  });

  it('stops polling an order at a final status (SHIPPED in the 1.0.1 set; CANCELLED)', async () => {
    const t = await setup();
    const shipped = await t.createOrder('poll-ship');
    const cancelled = await t.createOrder('poll-cancel');
    await t.advanceOnServer(shipped, 'SHIPPED');
    expect((await t.fx.sandbox.api('POST', `/v1/orders/${cancelled}/cancel`)).status).toBe(200);
    await t.poller.pollOnce();
    expect(t.fx.store.orders.get(shipped)?.status).toBe('SHIPPED');
    expect(t.fx.store.orders.get(cancelled)?.status).toBe('CANCELLED');
    const before = t.v1Requests();
    for (let m = 0; m < 24 * 60; m += 60) {
      t.clock.advance(HOUR);
      const r = await t.poller.pollOnce();
      expect(r.due).toBe(0);
    }
    expect(t.v1Requests()).toBe(before);
    expect(t.fx.store.orders.dueForPolling(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('never exceeds the budget; the most overdue orders go first and the rest wait', async () => {
    const t = await setup({ budgetPerMinute: 5, strategy: 'get' });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(await t.createOrder(`poll-budget-${i}`));
      t.clock.advance(1_000); // each order due one second after the one before
    }
    const before = t.v1Requests();
    const r1 = await t.poller.pollOnce();
    expect(r1).toMatchObject({ due: 12, budget: 5, gets: 5, deferred: 7 });
    expect(t.v1Requests() - before).toBe(5);
    expect(ids.slice(0, 5).every((id) => t.getsOf(id) === 1)).toBe(true);
    expect(ids.slice(5).every((id) => t.getsOf(id) === 0)).toBe(true);
    // Within the same minute the budget is spent: nothing more is sent.
    t.clock.advance(10_000);
    expect(await t.poller.pollOnce()).toMatchObject({ budget: 0, gets: 0 });
    t.clock.advance(MINUTE);
    const r3 = await t.poller.pollOnce();
    expect(r3.gets).toBe(5);
    expect(ids.slice(5, 10).every((id) => t.getsOf(id) === 1)).toBe(true);
    expect(t.v1Requests() - before).toBe(10);
  });

  it('walks list pages instead of one get per order when that takes fewer requests', async () => {
    const t = await setup({ budgetPerMinute: 60 });
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) ids.push(await t.createOrder(`poll-walk-${i}`));
    await t.advanceOnServer(ids[3]!, 'PROCESSING');
    await t.advanceOnServer(ids[140]!, 'FULFILLED');
    const listBefore = t.fetch.count('GET', '/v1/orders');
    const before = t.v1Requests();
    const report = await t.poller.pollOnce();
    expect(report).toMatchObject({ due: 150, polled: 150, listPages: 2, gets: 0, changed: 2 });
    expect(t.fetch.count('GET', '/v1/orders') - listBefore).toBe(2);
    expect(t.v1Requests() - before).toBe(2);
    expect(t.fx.store.orders.get(ids[3]!)?.status).toBe('PROCESSING');
    expect(t.fx.store.orders.get(ids[140]!)?.status).toBe('FULFILLED');
    expect(t.fx.store.orders.dueForPolling(t.clock.now(), 1000)).toHaveLength(0);
  });

  it('runs cycles on injected timers without real waiting', async () => {
    const t = await setup();
    const pending: { fn: () => void; at: number }[] = [];
    const timers: Timers = {
      setTimeout: (fn, ms) => {
        const entry = { fn, at: t.clock.now() + ms };
        pending.push(entry);
        return entry;
      },
      clearTimeout: (h) => {
        const i = pending.indexOf(h as (typeof pending)[number]);
        if (i >= 0) pending.splice(i, 1);
      },
    };
    const runDue = () => {
      for (const e of pending.filter((p) => p.at <= t.clock.now())) {
        pending.splice(pending.indexOf(e), 1);
        e.fn();
      }
    };
    const poller = new OrderPoller({
      store: t.fx.store,
      client: t.fx.client,
      bus: t.fx.bus,
      clock: t.clock,
      timers,
    });
    const id = await t.createOrder('poll-timers');
    poller.start();
    runDue();
    await expect.poll(() => t.getsOf(id)).toBe(1);
    await t.advanceOnServer(id, 'PROCESSING');
    await expect.poll(() => pending.length).toBe(1);
    expect(pending[0]!.at).toBe(t.clock.now() + MINUTE);
    t.clock.advance(MINUTE);
    runDue();
    await expect.poll(() => t.fx.store.orders.get(id)?.status).toBe('PROCESSING');
    await poller.stop();
    expect(pending).toHaveLength(0);
  });

  it('in the fast cadence a change on the server reaches the queue at the next read, 12 s on', async () => {
    const t = await setup();
    const pending: { fn: () => void; at: number }[] = [];
    const timers: Timers = {
      setTimeout: (fn, ms) => {
        const entry = { fn, at: t.clock.now() + ms };
        pending.push(entry);
        return entry;
      },
      clearTimeout: (h) => {
        const i = pending.indexOf(h as (typeof pending)[number]);
        if (i >= 0) pending.splice(i, 1);
      },
    };
    /** Moves the fake clock to each timer in turn, each cycle finished before the next. */
    const runFor = async (ms: number) => {
      const until = t.clock.now() + ms;
      for (;;) {
        await expect.poll(() => pending.length).toBeGreaterThan(0);
        const next = pending.filter((p) => p.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        pending.splice(pending.indexOf(next), 1);
        t.clock.advance(next.at - t.clock.now());
        next.fn();
      }
      t.clock.advance(until - t.clock.now());
    };
    // Its own timers, never run here: its idle timeout (5 min) is beyond this test.
    const presence = new Presence({ clock: t.clock, timers: { ...timers, setTimeout: () => 0 } });
    presence.report({ visible: true, input: true });
    const poller = new OrderPoller({
      store: t.fx.store,
      client: t.fx.client,
      bus: t.fx.bus,
      clock: t.clock,
      timers,
      pace: presence,
    });
    const id = await t.createOrder('poll-fast');
    poller.start();
    await runFor(0);
    await expect.poll(() => t.getsOf(id) + t.fetch.count('GET', '/v1/orders')).toBe(1);
    const queueStatus = () =>
      t.fx.store.orders.list({ limit: 10, offset: 0 }).find((o) => o.id === id)?.status;

    await t.advanceOnServer(id, 'PROCESSING');
    await runFor(11_000);
    expect(queueStatus()).toBe('NEW'); // not read yet: the young order is due 12 s after its read
    await runFor(1_000);
    await expect.poll(queueStatus).toBe('PROCESSING');
    expect(t.fx.eventsOf('order-status').at(-1)).toMatchObject({
      orderId: id,
      status: 'PROCESSING',
    });
    await poller.stop();
    presence.stop();
  });
});
