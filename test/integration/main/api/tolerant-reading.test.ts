import { afterEach, describe, expect, it } from 'vitest';
import { OrderPoller } from '@main/orders/order-poller';
import { pullMirror } from '@main/sync/mirror-pull';
import { systemClock } from '@main/clock';
import { orderV101 } from '@sandbox/views';
import { Order } from '@shared/api';
import { protocolFor } from '@test/support/bulk';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import { rewriteJson, type ProxiedRequest } from '@test/support/rewriting-proxy';
import { mirrorProtocol } from '@test/support/store-fixtures';

/**
 * A real server is not our sandbox: what the app reads through a proxy that changes the
 * sandbox's answers as a server of a later version may. An unknown value is kept and one
 * unreadable item is left out (and reported) without failing its page; a create answered in the
 * 1.0.1 shape is a created order.
 */

let fx: MainFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const start = async () => (fx = await startMainFixture({ proxy: true }));
const isList = (r: ProxiedRequest, path: string) => r.method === 'GET' && r.path === path;
type Json = Record<string, any>;

describe('reading a server that is not our sandbox', () => {
  it('a create answered in the 1.0.1 shape is the created order', async () => {
    const f = await start();
    f.proxy!.rewrite = (req, answer) =>
      req.method === 'POST' && req.path === '/v1/orders'
        ? rewriteJson(answer, (body) => orderV101(Order.parse(body), () => '1 capsule'))
        : answer;
    const order = await f.client.createOrder(protocolFor('v101-create'));
    expect(order).toMatchObject({
      status: 'NEW',
      statusPrecision: 'coarse',
      orderType: 'ONE_TIME',
      customer: { sourceId: 'v101-create', address: { zipCode: '97210' } },
    });
    // The server holds exactly that order.
    expect((await f.sandbox.api('GET', `/v1/orders/${order.id}`)).body.id).toBe(order.id);
  });

  it('an unknown status is kept; one unreadable order is left out of its page and reported', async () => {
    const f = await start();
    const held = await f.client.createOrder(protocolFor('unknown-held'));
    const broken = await f.client.createOrder(protocolFor('unknown-broken'));
    const plain = await f.client.createOrder(protocolFor('unknown-plain'));
    f.proxy!.rewrite = (req, answer) =>
      isList(req, '/v1/orders')
        ? rewriteJson(answer, (body) => {
            const page = body as { orders: Json[] };
            for (const o of page.orders) {
              if (o.id === held.id) o.status = 'ON_HOLD';
              if (o.id === broken.id) o.lineItems = 'not a list';
            }
            return page;
          })
        : answer;
    const page = await f.client.listOrders({ limit: 10 });
    expect(page.orders.map((o) => [o.id, o.status])).toEqual([
      [plain.id, 'NEW'],
      [held.id, 'ON_HOLD'],
    ]);
    expect(page.skipped).toEqual([
      { index: 1, id: broken.id, problems: [expect.stringMatching(/^lineItems: /)] },
    ]);
  });

  it('the poller follows an order in an unknown status and is not stopped by one it cannot read', async () => {
    const f = await start();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const order = await f.client.createOrder(protocolFor(`poll-${name}`));
      f.store.orders.upsert(order, { source: 'created' });
      ids.push(order.id);
    }
    const [held, broken, plain] = ids as [string, string, string];
    await f.sandbox.api('POST', `/_sandbox/orders/${plain}/advance`, { to: 'PROCESSING' });
    f.proxy!.rewrite = (req, answer) =>
      req.path === `/v1/orders/${held}`
        ? rewriteJson(answer, (o) => ({ ...(o as Json), status: 'ON_HOLD' }))
        : req.path === `/v1/orders/${broken}`
          ? rewriteJson(answer, (o) => ({ ...(o as Json), createdAt: 'yesterday' }))
          : answer;
    const lines: string[] = [];
    const poller = new OrderPoller({
      store: f.store,
      client: f.client,
      bus: f.bus,
      clock: systemClock,
      strategy: 'get',
      log: (line) => lines.push(line),
    });
    const report = await poller.pollOnce();
    expect(report).toMatchObject({ due: 3, gets: 3, unreadable: 1, changed: 2, error: null });
    expect(f.store.orders.get(held)?.status).toBe('ON_HOLD');
    expect(f.store.orders.get(plain)?.status).toBe('PROCESSING');
    expect(lines.join('\n')).toContain(`order ${broken} could not be read`);
    // Not final: still followed, and what is unreadable is asked again later, not dropped.
    const due = f.store.db
      .prepare('SELECT id, next_poll_at FROM orders WHERE id IN (?, ?)')
      .all(held, broken) as { next_poll_at: number | null }[];
    expect(due.every((r) => r.next_poll_at !== null)).toBe(true);
    expect(f.eventsOf('order-status').map((e) => [e.orderId, e.previous, e.status])).toEqual(
      expect.arrayContaining([
        [held, 'NEW', 'ON_HOLD'],
        [plain, 'NEW', 'PROCESSING'],
      ]),
    );
  });

  it('a mirror pull applies the rest, keeps what it could not read, and reports it', async () => {
    const f = await start();
    const kept = mirrorProtocol(f.store, await f.client.createProtocol(protocolFor('pull-kept')));
    await f.client.createProtocol(protocolFor('pull-new'));
    f.proxy!.rewrite = (req, answer) => {
      if (isList(req, '/v1/protocols'))
        return rewriteJson(answer, (body) => {
          const page = body as { protocols: Json[] };
          for (const p of page.protocols)
            if (p.customer.sourceId === 'pull-kept') p.customer = { sourceId: 42 };
          return page;
        });
      if (isList(req, '/v1/products'))
        return rewriteJson(answer, (body) => {
          const page = body as { products: Json[] };
          for (const p of page.products) {
            if (p.id === 1001) p.form = 'lozenge';
            if (p.id === 1002) p.status = 'RECALLED';
            if (p.id === 1003) p.price = 'free';
          }
          return page;
        });
      return answer;
    };
    const skipped: string[] = [];
    const report = await pullMirror({
      store: f.store,
      client: f.client,
      clock: systemClock,
      onSkipped: (line) => skipped.push(line),
    });
    expect(report.skipped).toEqual(skipped);
    expect(skipped).toEqual([
      expect.stringMatching(/^product 1003 could not be read \(price: /),
      expect.stringMatching(/^protocol prt_\S+ could not be read \(customer\./),
    ]);
    // The protocol that could not be read is still here, as it was; the other one came in.
    expect(f.store.protocols.get(kept.localId)?.draft.customer.sourceId).toBe('pull-kept');
    expect(report.protocols).toMatchObject({ inserted: 1, removed: 0 });
    // Products with a form or status the app does not know are mirrored as they came.
    expect(f.store.products.get(1001)?.form).toBe('lozenge');
    expect(f.store.products.get(1002)?.status).toBe('RECALLED');
  });
});
