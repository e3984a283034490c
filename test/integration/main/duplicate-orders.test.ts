import { afterEach, describe, expect, it } from 'vitest';
import { reviewBatch } from '../../../src/main/bulk/batch-review';
import type { Session } from '../../../src/main/connection-session';
import { createOrder } from '../../../src/main/orders/create-order';
import { isHeldInReview } from '../../../src/shared/work-views';
import { allServerOrders, clearFaults, protocolFor } from '../../support/bulk';
import { setFaults } from '../../support/client-harness';
import { startDesks, unsentChanges, type Desk, type Desks } from '../../support/desks';
import { waitFor } from '../../support/wait';

/**
 * One order per patient unless a person says otherwise: two desks on one account sending the
 * same patients, and a create whose answer came after the client gave up.
 */
let world: Desks | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

const N = 20;

/** `n` protocols drafted on desk A, pushed, and mirrored on desk B; their local ids on each. */
async function sharedProtocols(a: Desk, b: Desk, n: number, tag: string) {
  const onA = Array.from(
    { length: n },
    (_, i) => a.session.protocols.create(protocolFor(`${tag}-${i}`)).localId,
  );
  await waitFor(async () => {
    await a.session.sync.syncNow();
    return unsentChanges(a.store) === 0;
  }, 30_000);
  await b.session.sync.syncNow();
  const onB = onA.map(
    (id) => b.store.protocols.getByServerId(a.store.protocols.get(id)!.serverId!)!.localId,
  );
  return { onA, onB };
}

/** The review as the window asks for it (batches.review). */
const review = (desk: Desk, ids: readonly string[]) =>
  reviewBatch(desk.store, ids, { embedded: false, duplicates: desk.session.duplicates });

async function settled(session: Session, batchId: string) {
  await waitFor(() => session.bulk.progress(batchId).state === 'done', 60_000, 'the batch done');
  return session.bulk.progress(batchId);
}

const ordersOf = async (desks: Desks, tag: string) =>
  (await allServerOrders(desks.fx.sandbox)).filter((o) =>
    String(o.customer.sourceId).startsWith(`${tag}-`),
  );

describe('two desks, the same patients', () => {
  it(
    "sending the same 20 refills from two desks at once makes 20 orders, and the second desk is shown the first's",
    { timeout: 120_000 },
    async () => {
      world = await startDesks(2);
      const [a, b] = world.desks as [Desk, Desk];
      const { onA, onB } = await sharedProtocols(a, b, N, 'refill');
      // Both desks review the same patients at the same moment: nothing is ordered yet.
      const [reviewA, reviewB] = await Promise.all([review(a, onA), review(b, onB)]);
      expect(reviewA.items.filter(isHeldInReview)).toEqual([]);
      expect(reviewB.items.filter(isHeldInReview)).toEqual([]);

      const batchA = a.session.bulk.submit(onA, { concurrency: 4 });
      expect(await settled(a.session, batchA)).toMatchObject({ created: N, held: 0 });
      // Desk B sends what it reviewed a moment ago; it has not synced since.
      const batchB = b.session.bulk.submit(onB, { concurrency: 4 });
      expect(await settled(b.session, batchB)).toMatchObject({ created: 0, held: N, rejected: N });

      expect(await ordersOf(world, 'refill')).toHaveLength(N);
      const byPatient = new Map(
        a.store.batches.items(batchA).map((i) => [i.request.customer.sourceId, i.orderId]),
      );
      for (const item of b.store.batches.items(batchB)) {
        expect(item.error).toMatchObject({
          kind: 'duplicate',
          orders: [{ orderId: byPatient.get(item.request.customer.sourceId) }],
        });
      }
      // A new review on desk B shows desk A's orders, without a sync.
      const again = await review(b, onB);
      expect(again.items.every((i) => i.repeats.length === 1 && i.sameAs === null)).toBe(true);
      expect(again.estimatedTotal).toBe('0.00');
    },
  );

  it(
    'batches overlapping on the server: every extra order is flagged as a possible duplicate',
    { timeout: 120_000 },
    async () => {
      world = await startDesks(2);
      const [a, b] = world.desks as [Desk, Desk];
      const { onA, onB } = await sharedProtocols(a, b, N, 'overlap');
      await setFaults(world.fx.sandbox, { latencyMs: 30, match: { path: '/v1/orders' } });
      const batchA = a.session.bulk.submit(onA, { concurrency: 4 });
      await waitFor(() => a.session.bulk.progress(batchA).created >= 4, 30_000);
      const batchB = b.session.bulk.submit(onB, { concurrency: 4 });
      await Promise.all([settled(a.session, batchA), settled(b.session, batchB)]);
      await clearFaults(world.fx.sandbox);

      const orders = await ordersOf(world, 'overlap');
      const extra = orders.length - N;
      // Each patient is ordered at least once; what went out twice is flagged on both desks.
      expect(new Set(orders.map((o) => o.customer.sourceId)).size).toBe(N);
      await waitFor(
        async () => {
          await Promise.all([a.session.sync.syncNow(), b.session.sync.syncNow()]);
          return (
            a.session.bulk.progress(batchA).possibleDuplicates === extra &&
            b.session.bulk.progress(batchB).possibleDuplicates === extra
          );
        },
        30_000,
        () =>
          `${extra} extra order(s) flagged on both desks (A ${a.session.bulk.progress(batchA).possibleDuplicates}, B ${b.session.bulk.progress(batchB).possibleDuplicates})`,
        200,
      );
    },
  );
});

describe('twins in one batch', () => {
  it(
    'two protocols of one patient and content, both answers lost: two orders, none held back',
    { timeout: 60_000 },
    async () => {
      world = await startDesks(1, {
        client: { sleep: async () => undefined, retries: 0 },
        inDoubtGraceMs: { order: 300 },
      });
      const [desk] = world.desks as [Desk];
      const { session, store } = desk;
      const twins = [
        session.protocols.create(protocolFor('twin-1')).localId,
        session.protocols.create(protocolFor('twin-1')).localId,
      ];
      await waitFor(async () => {
        await session.sync.syncNow();
        return unsentChanges(store) === 0;
      }, 30_000);
      await setFaults(world.fx.sandbox, {
        dropResponseRate: 1,
        count: 1,
        match: { method: 'POST', path: '/v1/orders' },
      });
      // The user included the twin on purpose (the review showed it as the same order).
      const batchId = session.bulk.submit(twins, { concurrency: 1 });
      expect(await settled(session, batchId)).toMatchObject({ created: 2, held: 0, rejected: 0 });
      const items = store.batches.items(batchId);
      expect(new Set(items.map((i) => i.orderId)).size).toBe(2);
      expect(await ordersOf(world, 'twin')).toHaveLength(2);
    },
  );
});

describe('a create that commits after the client gave up', () => {
  it(
    'its order, showing up after the resend, is found and shown as a possible duplicate',
    { timeout: 120_000 },
    async () => {
      world = await startDesks(1, {
        client: { sleep: async () => undefined, timeoutMs: 300, retries: 0 },
        inDoubtGraceMs: { order: 300 },
      });
      const [desk] = world.desks as [Desk];
      const { session, store } = desk;
      const local = session.protocols.create(protocolFor('late-1'));
      await waitFor(async () => {
        await session.sync.syncNow();
        return unsentChanges(store) === 0;
      }, 30_000);
      // The first create is handled 2 s late: the client gives up after 0.3 s.
      await setFaults(world.fx.sandbox, {
        latencyMs: 2_000,
        match: { method: 'POST', path: '/v1/orders' },
      });
      const batchId = createOrder(
        { store, bulk: session.bulk },
        { protocolLocalId: local.localId },
      );
      await waitFor(() => store.jobs.counts({ batchId }).in_doubt === 1, 10_000, 'in doubt');
      await clearFaults(world.fx.sandbox);
      // Reconciliation finds nothing yet, the create is sent again and made at once.
      const progress = await settled(session, batchId);
      expect(progress).toMatchObject({ created: 1, rejected: 0 });
      const [item] = store.batches.items(batchId);
      // The late one commits: the next pulls find it and flag it.
      await waitFor(
        async () => {
          await session.sync.syncNow();
          return session.bulk.progress(batchId).possibleDuplicates === 1;
        },
        30_000,
        'the late order flagged',
        200,
      );
      const orders = await ordersOf(world, 'late');
      expect(orders).toHaveLength(2);
      const [flagged] = store.batches.items(batchId)[0]!.possibleDuplicates;
      const late = orders.find((o) => o.id !== item!.orderId)!;
      expect(flagged).toMatchObject({ orderId: late.id, of: item!.orderId });
      // Cancel it while NEW: one order is left for the patient.
      const outcome = await session.orders.cancelOrder(late.id);
      expect(outcome.ok).toBe(true);
    },
  );
});
