import { afterEach, describe, expect, it } from 'vitest';
import { reviewBatch } from '@main/bulk/batch-review';
import type { Session } from '@main/connection-session';
import { createOrder } from '@main/bulk/create-order';
import { isHeldInReview } from '@shared/work-views';
import { allServerOrders, clearFaults, protocolFor } from '@test/support/bulk';
import { setFaults } from '@test/support/client-harness';
import { startDesks, unsentChanges, type Desk, type Desks } from '@test/support/desks';
import { waitFor } from '@test/support/wait';

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
    'batches overlapping on the server: every extra order is cancelled by the desk that made it',
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
      // Each patient is ordered at least once; what went out twice (a race neither check could
      // see) is cancelled by the desk that made the later order, and nothing is left to a person.
      expect(new Set(orders.map((o) => o.customer.sourceId)).size).toBe(N);
      const counts = () => {
        const [pa, pb] = [a.session.bulk.progress(batchA), b.session.bulk.progress(batchB)];
        return {
          cancelled: pa.repeatsCancelled + pb.repeatsCancelled,
          open: pa.possibleDuplicates + pb.possibleDuplicates,
        };
      };
      await waitFor(
        async () => {
          await Promise.all([a.session.sync.syncNow(), b.session.sync.syncNow()]);
          const c = counts();
          return c.cancelled === extra && c.open === 0;
        },
        30_000,
        () => `${extra} extra order(s) cancelled, none open (${JSON.stringify(counts())})`,
        200,
      );
    },
  );
});

describe('two desks at the same moment', () => {
  it(
    'sending the same 20 patients together converge to 20 standing orders, each repeat cancelled by the desk that made it',
    { timeout: 180_000 },
    async () => {
      world = await startDesks(2);
      const [a, b] = world.desks as [Desk, Desk];
      const { onA, onB } = await sharedProtocols(a, b, N, 'moment');
      // A round trip long enough that both desks' creates cross on the server.
      await setFaults(world.fx.sandbox, { latencyMs: 30, match: { path: '/v1/orders' } });
      const batchA = a.session.bulk.submit(onA, { concurrency: 4 });
      const batchB = b.session.bulk.submit(onB, { concurrency: 4 });
      await Promise.all([settled(a.session, batchA), settled(b.session, batchB)]);
      await clearFaults(world.fx.sandbox);
      const made = await ordersOf(world, 'moment');
      const twice = made.length - N;

      // Within the bound (docs/decisions.md, "Two desks at the same moment"): both batches done,
      // then each desk's read of the server and its cancels. Here: a pull on each desk.
      const standing = async () =>
        (await ordersOf(world!, 'moment')).filter((o) => o.status !== 'CANCELLED');
      // A desk learns of the other's cancels at its next pull: then nothing is left to a person.
      const open = () =>
        a.session.bulk.progress(batchA).possibleDuplicates +
        b.session.bulk.progress(batchB).possibleDuplicates;
      let now = made.length;
      await waitFor(
        async () => {
          await Promise.all([a.session.sync.syncNow(), b.session.sync.syncNow()]);
          now = (await standing()).length;
          return now === N && open() === 0;
        },
        30_000,
        () => `${N} standing orders (now ${now} of ${made.length}), none open (${open()})`,
        200,
      );
      const kept = await standing();
      expect(new Set(kept.map((o) => o.customer.sourceId)).size).toBe(N);

      // Each cancelled repeat is shown, cancelled by Order Desk, on the desk whose batch made it.
      const cancelledOn = (desk: Desk, batchId: string) =>
        desk.store.batches
          .items(batchId)
          .flatMap((i) => i.possibleDuplicates)
          .filter((d) => d.autoCancel === 'done')
          .map((d) => d.orderId);
      const ownOrders = (desk: Desk, batchId: string) =>
        new Set(desk.store.batches.items(batchId).map((i) => i.orderId));
      const onADesk = cancelledOn(a, batchA);
      const onBDesk = cancelledOn(b, batchB);
      expect(onADesk.length + onBDesk.length).toBe(twice);
      for (const id of onADesk) expect(ownOrders(a, batchA).has(id)).toBe(true);
      for (const id of onBDesk) expect(ownOrders(b, batchB).has(id)).toBe(true);
      expect(a.session.bulk.progress(batchA).repeatsCancelled).toBe(onADesk.length);
      expect(b.session.bulk.progress(batchB).repeatsCancelled).toBe(onBDesk.length);
    },
  );

  it('never cancels a repeat a person included', { timeout: 120_000 }, async () => {
    world = await startDesks(2);
    const [a, b] = world.desks as [Desk, Desk];
    const { onA, onB } = await sharedProtocols(a, b, 1, 'meant');
    const batchA = a.session.bulk.submit(onA, { concurrency: 1 });
    await settled(a.session, batchA);
    const first = a.store.batches.items(batchA)[0]!.orderId!;
    await b.session.sync.syncNow();
    // Desk B's person sees desk A's order and orders again anyway, a moment later.
    const batchB = b.session.bulk.submit(onB, { allowDuplicateOf: { [onB[0]!]: [first] } });
    await settled(b.session, batchB);
    await Promise.all([a.session.sync.syncNow(), b.session.sync.syncNow()]);
    await waitFor(() => a.session.bulk.progress(batchA).possibleDuplicates === 1, 30_000);
    // Both stand: desk B's was meant, and desk A's is the earlier one.
    const orders = await ordersOf(world, 'meant');
    expect(orders.filter((o) => o.status !== 'CANCELLED')).toHaveLength(2);
    expect(b.session.bulk.progress(batchB)).toMatchObject({
      possibleDuplicates: 0,
      repeatsCancelled: 0,
    });
  });
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
