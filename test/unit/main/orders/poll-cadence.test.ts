import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppOrder } from '@shared/api';
import { ApiClientError } from '@main/api/errors';
import { systemClock } from '@main/clock';
import { CoreEventBus } from '@main/core-event-bus';
import { OrderPoller } from '@main/orders/order-poller';
import { IDLE_AFTER_MS, Presence } from '@main/presence';
import { createLocalStore, type LocalStore } from '@main/stores';
import { realTimers } from '@main/timers';
import { appOrder } from '@test/support/store-fixtures';

const START = Date.parse('2030-01-15T09:00:00Z');
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** A server of orders, newest first, read by list pages of 100 and gets; every request timed. */
function fakeServer() {
  const orders: AppOrder[] = [];
  const requests: number[] = [];
  let refuse: ApiClientError | null = null;
  const answer = () => {
    requests.push(Date.now());
    if (refuse) throw refuse;
  };
  return {
    requests,
    add(n: number) {
      for (let i = 0; i < n; i++) {
        const at = new Date(Date.now()).toISOString();
        orders.unshift(
          appOrder(`o-${orders.length}`, {
            createdAt: at,
            updatedAt: at,
            statusPrecision: 'coarse',
          }),
        );
      }
      return orders.map((o) => o.id);
    },
    advance(id: string, status: AppOrder['status']) {
      const i = orders.findIndex((o) => o.id === id);
      orders[i] = { ...orders[i]!, status, updatedAt: new Date(Date.now()).toISOString() };
    },
    /** The server's copy, mirrored before the poller starts. */
    copy: (id: string) => orders.find((o) => o.id === id)!,
    refuseWith(error: ApiClientError | null) {
      refuse = error;
    },
    client: {
      listOrders: async (params: { limit?: number; cursor?: string } = {}) => {
        answer();
        const from = Number(params.cursor ?? 0);
        const to = from + (params.limit ?? 10);
        return {
          orders: orders.slice(from, to),
          cursor: to < orders.length ? String(to) : null,
          skipped: [],
        };
      },
      getOrder: async (id: string) => {
        answer();
        return orders.find((o) => o.id === id)!;
      },
    },
  };
}

let store: LocalStore;
let presence: Presence;
let poller: OrderPoller | null = null;

beforeEach(() => {
  vi.useFakeTimers({ now: START });
  store = createLocalStore(':memory:', { clock: systemClock });
  presence = new Presence({ clock: systemClock, timers: realTimers });
});

afterEach(async () => {
  await poller?.stop();
  poller = null;
  presence.stop();
  store.close();
  vi.useRealTimers();
});

function startPolling(server: ReturnType<typeof fakeServer>, ids: readonly string[]) {
  for (const id of ids) store.orders.upsert(server.copy(id), { source: 'pulled' });
  poller = new OrderPoller({
    store,
    client: server.client,
    bus: new CoreEventBus(),
    clock: systemClock,
    pace: presence,
  });
  poller.start();
}

/** Requests made in the `ms` before now. */
const within = (requests: readonly number[], ms: number) =>
  requests.filter((t) => t > Date.now() - ms).length;

describe('status polling cadence', () => {
  it('reads a young order every 12 s while the window is shown and in use', async () => {
    const server = fakeServer();
    const [id] = server.add(1);
    presence.report({ visible: true, input: true });
    startPolling(server, [id!]);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(within(server.requests, MINUTE)).toBe(5);

    // A change on the server is in the store at the next read: within 15 s.
    server.advance(id!, 'PROCESSING');
    await vi.advanceTimersByTimeAsync(15 * SECOND);
    expect(store.orders.get(id!)?.status).toBe('PROCESSING');
  });

  it('reads a young order never read before at the next 3-s cycle, not the next whole one', async () => {
    const server = fakeServer();
    const [first] = server.add(1);
    presence.report({ visible: true, input: true });
    startPolling(server, [first!]);
    await vi.advanceTimersByTimeAsync(4 * SECOND); // the whole cycle at 0 s, a fast one at 3 s
    const [fresh] = server.add(1);
    store.orders.upsert(server.copy(fresh!), { source: 'created' });
    server.advance(fresh!, 'PROCESSING');
    await vi.advanceTimersByTimeAsync(2 * SECOND); // the cycle at 6 s
    expect(store.orders.get(fresh!)?.status).toBe('PROCESSING');
  });

  it('reads an order asked for now at the next fast cycle, though it was read a moment ago', async () => {
    const server = fakeServer();
    const [id] = server.add(1);
    presence.report({ visible: true, input: true });
    startPolling(server, [id!]);
    await vi.advanceTimersByTimeAsync(4 * SECOND); // read by the whole cycle at 0 s
    server.advance(id!, 'PROCESSING');
    store.orders.schedulePoll(id!, { nextPollAt: 0 });
    const report = await poller!.pollOnce();
    expect(report.polled).toBe(1);
    expect(store.orders.get(id!)?.status).toBe('PROCESSING');
  });

  it('slows down when the window is hidden, and reads at once when it is shown again', async () => {
    const server = fakeServer();
    const [id] = server.add(1);
    presence.report({ visible: true, input: true });
    startPolling(server, [id!]);
    await vi.advanceTimersByTimeAsync(20 * SECOND);
    presence.report({ visible: false, input: false });
    expect(presence.pace).toBe('slow');
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    // Hidden: a young order once a minute (the cycle that was waiting may read once more).
    expect(within(server.requests, 4 * MINUTE)).toBe(4);

    const before = server.requests.length;
    server.advance(id!, 'PROCESSING');
    presence.report({ visible: true, input: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.requests.length).toBe(before + 1);
    expect(store.orders.get(id!)?.status).toBe('PROCESSING');
  });

  it('slows down after five minutes without input, and speeds up at the next input', async () => {
    const server = fakeServer();
    const [id] = server.add(1);
    const paces: string[] = [];
    presence.onChange((pace) => paces.push(pace));
    presence.report({ visible: true, input: true });
    startPolling(server, [id!]);
    await vi.advanceTimersByTimeAsync(IDLE_AFTER_MS - SECOND);
    expect(presence.pace).toBe('fast');
    await vi.advanceTimersByTimeAsync(SECOND);
    expect(presence.pace).toBe('slow');
    await vi.advanceTimersByTimeAsync(3.5 * MINUTE);
    expect(within(server.requests, 2 * MINUTE)).toBe(2); // once a minute

    const before = server.requests.length;
    presence.report({ visible: true, input: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.requests.length).toBe(before + 1);
    expect(paces).toEqual(['fast', 'slow', 'fast']);
  });

  it('never spends more than 20 requests in any minute, however many orders are due', async () => {
    const server = fakeServer();
    const ids = server.add(600);
    presence.report({ visible: true, input: true });
    startPolling(server, ids);
    let most = 0;
    for (let s = 0; s < 3 * 60; s += 3) {
      await vi.advanceTimersByTimeAsync(3 * SECOND);
      if (s % 60 === 0) presence.report({ visible: true, input: true });
      most = Math.max(most, within(server.requests, MINUTE));
    }
    expect(most).toBe(20);
    // No burst takes the minute at once: at most 5 requests in any 3-second cycle.
    const perCycle = new Map<number, number>();
    for (const t of server.requests) perCycle.set(t, (perCycle.get(t) ?? 0) + 1);
    expect(Math.max(...perCycle.values())).toBe(5);
  });

  it('backs off on 429, honouring Retry-After and doubling, then resumes the fast cadence', async () => {
    const server = fakeServer();
    const [id] = server.add(1);
    presence.report({ visible: true, input: true });
    startPolling(server, [id!]);
    await vi.advanceTimersByTimeAsync(0);
    server.refuseWith(
      new ApiClientError({
        kind: 'rate-limited',
        status: 429,
        message: 'slow down',
        retryAfterMs: 20 * SECOND,
      }),
    );
    await vi.advanceTimersByTimeAsync(12 * SECOND); // the next read: refused
    expect(server.requests).toHaveLength(2);
    // Shown and used meanwhile: still the server's wait, not a read at once.
    presence.report({ visible: false, input: false });
    presence.report({ visible: true, input: true });
    await vi.advanceTimersByTimeAsync(20 * SECOND - 1);
    expect(server.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1); // refused again: now 40 s
    expect(server.requests).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(40 * SECOND - 1);
    expect(server.requests).toHaveLength(3);
    server.refuseWith(null);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.requests).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(12 * SECOND);
    expect(server.requests).toHaveLength(5);
  });
});
