import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '@main/clock';
import { Redactor, silentLogger } from '@main/logging';
import { Session } from '@main/connection-session';
import { orderV101 } from '@sandbox/views';
import { Order, type Protocol } from '@shared/api';
import type { CoreEvents } from '@shared/core-events';
import { createLocalProtocols, expectOneOrderPerProtocol, protocolFor } from '@test/support/bulk';
import { setFaults } from '@test/support/client-harness';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import {
  PORTAL_PAGE,
  rewriteJson,
  withUnknownFields,
  type ProxiedAnswer,
  type ProxiedRequest,
} from '@test/support/rewriting-proxy';
import { serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { sessionActivity } from '@test/support/activity';

/**
 * The app's main services (a whole Session) against a proxy in front of a real sandbox that
 * answers as a real server and a real network may: unknown fields in every object, nulls wherever
 * the spec allows them, creates answered in the 1.0.1 shape, one order ON_HOLD (a status the app
 * does not know) for three poll cycles, and for 20 s a captive portal answering everything with
 * a 200 sign-in page (passing every other write on before answering in the server's place).
 * Nothing is stuck, no order is lost or doubled, and the state says offline, for that reason,
 * while the portal lasts.
 */

const BATCH = 30;
const DRAFTS = 8;
const PORTAL_MS = 20_000;

let fx: MainFixture | null = null;
let session: Session | null = null;
afterEach(async () => {
  await session?.stop();
  await fx?.close();
  session = null;
  fx = null;
});

type Json = Record<string, any>;

/** Every nullable field of a protocol answer that the server computes, null. */
function nullComputed(p: Json): Json {
  for (const key of [
    'discount',
    'subtotalPrice',
    'totalDiscount',
    'totalFees',
    'totalVolumeDiscount',
    'totalShipping',
    'totalPrice',
  ])
    p[key] = null;
  for (const li of p.lineItems ?? []) li.imageUrl = null;
  // A protocol "decided on the subscription": every field the spec lets be null is.
  if (String(p.customer?.sourceId).startsWith('nul-')) {
    Object.assign(p, { daysSupply: null, orderType: null, shippingMethod: null });
    Object.assign(p.customer, { email: null, phone: null });
    p.customer.address.line2 = null;
  }
  return p;
}

describe('through a proxy that answers as a real server and a real network may', () => {
  it(
    'unknown fields, nulls, 1.0.1 creates, ON_HOLD for three poll cycles, a 20 s captive portal: nothing stuck, nothing lost or doubled',
    { timeout: 150_000 },
    async () => {
      fx = await startMainFixture({ proxy: true });
      const f = fx;
      const proxy = f.proxy!;
      const connection = f.connection;
      expect(connection.baseUrl).toBe(proxy.baseUrl);

      // Protocols already on the server, some with every nullable field null.
      for (let i = 0; i < 3; i++) await f.client.createProtocol(protocolFor(`nul-${i}`));

      let onHold: { orderId: string; cycles: number } | null = null;
      const rewrite = (req: ProxiedRequest, answer: ProxiedAnswer): ProxiedAnswer =>
        rewriteJson(answer, (body) => {
          let b = body as Json;
          if (req.method === 'POST' && req.path === '/v1/orders' && answer.status === 201)
            b = orderV101(Order.parse(b), () => '1 capsule') as unknown as Json;
          if (req.path.startsWith('/v1/protocols')) {
            if (Array.isArray(b.protocols)) b.protocols.forEach(nullComputed);
            else if (b.customer) nullComputed(b);
          }
          if (onHold && req.method === 'GET' && req.path.startsWith('/v1/orders')) {
            const held = onHold.orderId;
            for (const o of Array.isArray(b.orders) ? b.orders : [b])
              if (o.id === held) o.status = 'ON_HOLD';
          }
          return withUnknownFields(b);
        });
      proxy.rewrite = rewrite;

      const events: { at: number; state: CoreEvents['connectivity'] }[] = [];
      f.bus.on('connectivity', (state) => events.push({ at: Date.now(), state }));
      const s = new Session({
        connection,
        clientSecret: async () => f.sandbox.clientSecret,
        store: f.store,
        bus: f.bus,
        log: silentLogger,
        redactor: new Redactor(),
        clock: systemClock,
        ...sessionActivity(f.store),
        tuning: {
          client: { sleep: async () => undefined, timeoutMs: 5_000 },
          inDoubtGraceMs: { protocol: 1_000, order: 1_000 },
          probeBackoffMs: 200,
          poll: {
            cycleMs: 300,
            schedule: [{ maxAgeMs: Infinity, intervalMs: 100 }],
            budgetPerMinute: 6_000,
          },
        },
      });
      session = s;
      // Poll cycles, counted while the order is ON_HOLD.
      const pollOnce = s.poller.pollOnce.bind(s.poller);
      s.poller.pollOnce = async () => {
        const report = await pollOnce();
        if (onHold) onHold.cycles++;
        return report;
      };

      const drafts = createLocalProtocols(f.store, DRAFTS, 'draft');
      const ids = createLocalProtocols(f.store, BATCH, 'prox');
      // Writes answer slowly, so that the batch is still on its way when the portal comes.
      await setFaults(f.sandbox, { latencyMs: 300, match: { method: 'POST', path: '/v1/' } });
      s.start();
      const batchId = s.bulk.submit(ids, { concurrency: 2 });

      // An order ON_HOLD for three poll cycles: kept as it came, still followed.
      await waitFor(() => s.bulk.progress(batchId).created >= 3, 30_000, '3 created');
      const heldId = f.store.batches.items(batchId).find((i) => i.orderId)!.orderId!;
      onHold = { orderId: heldId, cycles: 0 };
      await waitFor(() => onHold!.cycles >= 3, 30_000, 'three poll cycles');
      expect(f.store.orders.get(heldId)?.status).toBe('ON_HOLD');
      const stillFollowed = f.store.db
        .prepare('SELECT next_poll_at FROM orders WHERE id = ?')
        .get(heldId) as { next_poll_at: number | null };
      expect(stillFollowed.next_poll_at).not.toBeNull();
      onHold = null;
      await waitFor(() => f.store.orders.get(heldId)?.status === 'NEW', 10_000, 'back to NEW');
      const heldEvents = f
        .eventsOf('order-status')
        .filter((e) => e.orderId === heldId)
        .map((e) => [e.previous, e.status]);
      expect(heldEvents).toEqual([
        ['NEW', 'ON_HOLD'],
        ['ON_HOLD', 'NEW'],
      ]);

      // A captive portal for 20 s, while the batch is on its way.
      expect(s.bulk.progress(batchId).created).toBeLessThan(BATCH);
      let writes = 0;
      const forwarded: string[] = [];
      proxy.intercept = (req) => {
        // Every other write arrives before the portal answers in the server's place.
        const forward = req.method === 'POST' && req.path.startsWith('/v1/') && writes++ % 2 === 0;
        if (forward) forwarded.push(req.path);
        return { answer: PORTAL_PAGE, forward };
      };
      const portalFrom = Date.now();
      const offline = await waitFor(
        () => events.find((e) => e.at >= portalFrom && !e.state.online),
        10_000,
        'offline during the portal',
      );
      expect(offline.state.reason).toBe('not-api');
      // Writes already on their way when the portal came may still bring the server's answer
      // (online for a moment); after that, offline for that reason until the portal goes.
      const settledAt = portalFrom + 3_000;
      await new Promise((r) => setTimeout(r, settledAt - Date.now()));
      expect(s.connectivity.state).toMatchObject({ online: false, reason: 'not-api' });
      await new Promise((r) => setTimeout(r, PORTAL_MS - (Date.now() - portalFrom)));
      expect(s.connectivity.state).toMatchObject({ online: false, reason: 'not-api' });
      expect(events.filter((e) => e.at >= settledAt && e.state.online)).toEqual([]);
      const portalTo = Date.now();
      proxy.intercept = null;
      // Creates of orders reached the server while the portal answered: they were in doubt.
      expect(forwarded).toContain('/v1/orders');
      expect(Math.max(...f.eventsOf('batch-progress').map((p) => p.inDoubt))).toBeGreaterThan(0);

      // Back online, and everything settles.
      await waitFor(() => s.connectivity.online, 20_000, 'online after the portal');
      expect(events.find((e) => e.at >= portalTo && e.state.online)).toBeDefined();
      let state = '';
      await waitFor(
        async () => {
          await s.sync.syncNow();
          const protocolJobs = f.store.jobs.counts({ kind: 'protocol' });
          const orderJobs = f.store.jobs.counts({ kind: 'order' });
          const open = (c: typeof protocolJobs) => c.queued + c.sending + c.in_doubt + c.rejected;
          state = JSON.stringify({ protocolJobs, orderJobs, progress: s.bulk.progress(batchId) });
          return (
            s.bulk.progress(batchId).state === 'done' &&
            open(protocolJobs) === 0 &&
            open(orderJobs) === 0
          );
        },
        90_000,
        () => `every order created and every protocol pushed (last: ${state})`,
        200,
      );
      await setFaults(f.sandbox, {});

      // Exactly one order per protocol of the batch, none rejected, each mirrored.
      expect(s.bulk.progress(batchId)).toMatchObject({ created: BATCH, rejected: 0 });
      await expectOneOrderPerProtocol(f.sandbox, f.store, batchId, 'prox-');
      // One server protocol per draft, each local one synced with it.
      const server = await serverProtocols(f.sandbox);
      for (const prefix of ['prox-', 'draft-']) {
        const ours = server.filter((p: Protocol) => p.customer.sourceId.startsWith(prefix));
        expect(ours).toHaveLength(prefix === 'prox-' ? BATCH : DRAFTS);
        expect(new Set(ours.map((p) => p.customer.sourceId)).size).toBe(ours.length);
      }
      for (const localId of [...ids, ...drafts])
        expect(f.store.protocols.get(localId)).toMatchObject({ syncState: 'synced', change: null });
      // The protocols whose every nullable field is null are mirrored as such.
      const nul = f.store.protocols
        .list({ search: 'nul-', limit: 10 })
        .items.map((p) => f.store.protocols.get(p.localId)!);
      expect(nul).toHaveLength(3);
      for (const p of nul)
        expect(p.server).toMatchObject({
          daysSupply: null,
          shippingMethod: null,
          totalPrice: null,
        });
      // Nothing the server sent had to be left out, and the poller still follows the orders.
      const syncs = f.eventsOf('sync-state');
      expect(syncs.flatMap((e) => e.skipped)).toEqual([]);
      expect(f.store.orders.get(heldId)?.status).toBe('NEW');
    },
  );
});
