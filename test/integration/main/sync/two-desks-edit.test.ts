import { afterEach, describe, expect, it } from 'vitest';
import { protocolFor } from '@test/support/bulk';
import { setFaults } from '@test/support/client-harness';
import { startDesks, unsentChanges, type Desk, type Desks } from '@test/support/desks';
import { serverProtocol } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';

/**
 * Two desks on one partner account edit the same protocols online at the same moment, over a
 * slow network (300 ms before each request is handled). The API has no conditional write, so
 * one edit overwrites the other on the server; the desk whose edit was overwritten must show a
 * conflict for it, never believe it synced.
 */
const N = 5;

let world: Desks | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

describe('two desks edit one protocol online at once', () => {
  it('the desk whose edit was overwritten shows a conflict', { timeout: 120_000 }, async () => {
    world = await startDesks(2);
    const f = world.fx;
    const [{ session: a }, { session: b, store: storeB }] = world.desks as [Desk, Desk];

    const ids = Array.from({ length: N }, (_, i) => a.protocols.create(protocolFor(`both-${i}`)));
    await waitFor(async () => {
      await a.sync.syncNow();
      return unsentChanges(f.store) === 0;
    }, 30_000);
    await b.sync.syncNow(); // desk B mirrors them
    const serverIds = ids.map((p) => f.store.protocols.get(p.localId)!.serverId!);
    const onB = serverIds.map((id) => storeB.protocols.getByServerId(id)!.localId);

    await setFaults(f.sandbox, { latencyMs: 300 });
    // The same moment on both desks: each writes its own last name into every protocol.
    serverIds.forEach((_, i) => {
      a.protocols.update(ids[i]!.localId, edited(i, 'Desk A'));
      b.protocols.update(onB[i]!, edited(i, 'Desk B'));
    });
    await Promise.all([a.sync.syncNow(), b.sync.syncNow()]);
    await waitFor(
      async () => {
        await Promise.all([a.sync.syncNow(), b.sync.syncNow()]);
        return unsentChanges(f.store) === 0 && unsentChanges(storeB) === 0;
      },
      60_000,
      'both desks settled',
      200,
    );

    for (let i = 0; i < N; i++) {
      const server = await serverProtocol(f.sandbox, serverIds[i]!);
      const kept = server!.customer.lastName;
      expect(['Desk A', 'Desk B']).toContain(kept);
      const mine = f.store.protocols.get(ids[i]!.localId)!;
      const theirs = storeB.protocols.get(onB[i]!)!;
      const [winner, loser] = kept === 'Desk A' ? [mine, theirs] : [theirs, mine];
      expect(loser.syncState, `protocol ${i}: the overwritten desk`).toBe('conflict');
      expect(loser.conflict?.server?.customer.lastName).toBe(kept);
      expect(winner.draft.customer.lastName).toBe(kept);
    }
  });
});

/** Protocol `i` with another last name: what one desk writes. */
function edited(i: number, lastName: string) {
  const base = protocolFor(`both-${i}`);
  return { ...base, customer: { ...base.customer, lastName } };
}
