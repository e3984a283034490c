import { describe, expect, it } from 'vitest';
import { UnknownValue } from '@shared/api';
import { BatchRejectedError } from '@main/orders/order-requests';
import { draftFromOrder } from '@main/orders/reorder';
import { listPatients, patientView } from '@main/patients/patient-queries';
import { appOrder, memoryStore, protocolRequest } from '@test/support/store-fixtures';

const DAY = 86_400_000;

describe('patients', () => {
  function seeded() {
    const store = memoryStore();
    const now = store.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const ada = { sourceId: 'p-ada', firstName: 'Ada', lastName: 'Patient' };
    const protocols = [30, 60, 90].map(
      (daysSupply) =>
        store.protocols.createDraft(protocolRequest(ada, { daysSupply: daysSupply as 30 })).localId,
    );
    const gone = store.protocols.createDraft(
      protocolRequest({ sourceId: 'p-gone', firstName: 'Gone', lastName: 'Away' }),
    ).localId;
    store.protocols.deleteDraft(gone);
    const order = (id: string, sourceId: string, daysAgo: number, extra = {}) =>
      appOrder(id, {
        customer: { ...appOrder('x').customer, sourceId, firstName: 'Ordered', lastName: 'Name' },
        createdAt: iso(now - daysAgo * DAY),
        updatedAt: iso(now - daysAgo * DAY),
        ...extra,
      });
    store.orders.upsertMany(
      [
        order('ord_a1', 'p-ada', 40),
        order('ord_a2', 'p-ada', 10, {
          status: 'SHIPPED',
          fulfillmentInfo: {
            carrier: 'UPS',
            trackingNumber: '1Z999',
            trackingUrl: null,
            trackingStatus: null,
            checkpoints: null,
          },
        }),
        order('ord_a3', 'p-ada', 2, { status: 'CANCELLED' }),
        order('ord_b1', 'p-bob', 5),
      ],
      'pulled',
    );
    return { store, now, protocols };
  }

  it('lists every patient once, by name, with their protocols, orders and last order', () => {
    const { store, now } = seeded();
    const page = listPatients(store, { limit: 10, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.patients).toEqual([
      {
        sourceId: 'p-ada',
        name: 'Ada Patient',
        protocols: 3,
        orders: 3,
        lastOrderedAt: new Date(now - 2 * DAY).toISOString(),
        person: expect.any(String),
        sharedId: false,
        // The latest order was cancelled: still an order placed, said so.
        lastOrderCancelled: true,
      },
      // No protocol: named after the latest order.
      expect.objectContaining({
        sourceId: 'p-bob',
        name: 'Ordered Name',
        protocols: 0,
        orders: 1,
        lastOrderCancelled: false,
      }),
    ]);
    // The deleted protocol's patient, who has no order, is not a patient any more.
    expect(page.patients.map((p) => p.sourceId)).not.toContain('p-gone');
  });

  it('searches every word in the name or the Patient ID, and pages', () => {
    const { store } = seeded();
    const ids = (search: string) =>
      listPatients(store, { search, limit: 10, offset: 0 }).patients.map((p) => p.sourceId);
    expect(ids('ada')).toEqual(['p-ada']);
    expect(ids('P-BOB')).toEqual(['p-bob']);
    expect(ids('ordered p-bob')).toEqual(['p-bob']);
    expect(ids('ada p-bob')).toEqual([]);
    // LIKE's wildcards are taken as themselves.
    expect(ids('%')).toEqual([]);
    expect(ids('p_ada')).toEqual([]);
    const second = listPatients(store, { limit: 1, offset: 1 });
    expect(second.patients.map((p) => p.sourceId)).toEqual(['p-bob']);
    expect(second.total).toBe(2);
    expect(listPatients(store, { limit: 1, offset: 5 })).toEqual({
      patients: [],
      total: 2,
      sharedIds: 0,
    });
  });

  it('shows one patient whole: protocols, orders newest first, tracking, and the supply', () => {
    const { store, now, protocols } = seeded();
    const view = patientView(store, 'p-ada', now)!;
    expect(view.name).toBe('Ada Patient');
    expect(view.protocols.map((p) => [p.protocol.localId, p.daysSupply])).toEqual([
      [protocols[0], 30],
      [protocols[1], 60],
      [protocols[2], 90],
    ]);
    expect(view.protocols[0]!.products).toEqual(['Product 1001', 'Product 1035']);
    expect(view.orders.map((o) => [o.id, o.status])).toEqual([
      ['ord_a3', 'CANCELLED'],
      ['ord_a2', 'SHIPPED'],
      ['ord_a1', 'NEW'],
    ]);
    expect(view.orders[1]).toMatchObject({
      products: ['Vitamin D3'],
      totalPrice: '32.00',
      tracking: { carrier: 'UPS', trackingNumber: '1Z999', trackingUrl: null },
      protocolLocalId: null,
    });
    expect(view.orders[2]!.tracking).toBeNull();
    // The cancelled order supplies nothing: the shipped one, 10 days ago, has 20 days left.
    expect(view.supply).toEqual({
      lastOrderId: 'ord_a2',
      lastOrderedAt: new Date(now - 10 * DAY).toISOString(),
      daysSupply: 30,
      runsOutAt: now + 20 * DAY,
      daysLeft: 20,
    });
    expect(patientView(store, 'p-nobody', now)).toBeNull();
    expect(patientView(store, 'p-bob', now)!.protocols).toEqual([]);
  });

  it("counts the supply of the patient's protocols as Refills due does: overlapping orders add up", () => {
    const { store, now } = seeded();
    // A protocol of the orders' own content: ord_a1 (40 days ago) and ord_a2 (10 days ago)
    // overlap by nothing (a1 ran out 10 days ago), so a2 alone supplies her: 20 days left.
    const lineItems = appOrder('x').lineItems.map(({ productId, quantity, administration }) => ({
      productId,
      quantity,
      administration,
    }));
    store.protocols.createDraft(
      protocolRequest({ sourceId: 'p-ada', firstName: 'Ada', lastName: 'Patient' }, { lineItems }),
    );
    expect(patientView(store, 'p-ada', now)!.supply).toMatchObject({
      lastOrderId: 'ord_a2',
      daysLeft: 20,
    });
    // A second order of it 5 days ago, inside a2's supply: 30 more days.
    const at = new Date(now - 5 * DAY).toISOString();
    store.orders.upsertMany(
      [
        appOrder('ord_a4', {
          customer: { ...appOrder('x').customer, sourceId: 'p-ada' },
          createdAt: at,
          updatedAt: at,
        }),
      ],
      'pulled',
    );
    expect(patientView(store, 'p-ada', now)!.supply).toMatchObject({
      lastOrderId: 'ord_a4',
      runsOutAt: now + 50 * DAY,
      daysLeft: 50,
    });
  });

  it('makes a past order the draft of the same order again, and refuses one the API would not take', () => {
    const order = appOrder('ord_1');
    expect(draftFromOrder(order)).toEqual({
      customer: {
        sourceId: 'patient-0001',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: null,
        address: {
          line1: '1 Main St',
          line2: null,
          city: 'Portland',
          state: 'OR',
          zipCode: '97210',
        },
      },
      daysSupply: 30,
      shippingMethod: 'STANDARD',
      orderType: 'ONE_TIME',
      lineItems: [
        {
          productId: 1001,
          quantity: 2,
          packDescription: '1 capsule',
          administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
        },
      ],
    });
    const odd = appOrder('ord_2', { shippingMethod: UnknownValue.parse('CARRIER_PIGEON') });
    expect(() => draftFromOrder(odd)).toThrow(BatchRejectedError);
    try {
      draftFromOrder(odd);
    } catch (error) {
      expect((error as BatchRejectedError).rejected[0]!.problems).toEqual([
        { path: 'shippingMethod', message: expect.any(String) },
      ]);
    }
  });
});
