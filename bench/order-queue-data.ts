/**
 * The order mirror of the order queue benches (renderer-order-queue.ts, order-queue-store.ts): a
 * year of `count` orders, the older ones mostly delivered, the newest ones in every status, 20,000
 * patients, 8 first names and 8 × 997 last names.
 */
import type { LocalStore } from '@main/stores';
import { ORDER_STATUSES, type AppOrder, type OrderStatus } from '@shared/api';

const FIRST = ['Ada', 'Grace', 'Alan', 'Katherine', 'Edsger', 'Barbara', 'Donald', 'Frances'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Dijkstra', 'Liskov', 'Knuth', 'Allen'];
const DAY = 86_400_000;

/** Old orders are mostly finished, the newest ones still moving: the mix a clinic would see. */
function statusFor(ageDays: number, i: number): OrderStatus {
  if (i % 37 === 0) return 'CANCELLED';
  if (ageDays > 14) return i % 5 === 0 ? 'SHIPPED' : 'DELIVERED';
  return ORDER_STATUSES[i % 8]!;
}

/** Order `i` of `count`, created up to a year before `now` (i = 0 is the newest). */
export function benchOrder(i: number, count: number, now: number): AppOrder {
  const createdMs = now - Math.floor((i / count) * 365 * DAY) - (i % 1000);
  const ageDays = (now - createdMs) / DAY;
  const created = new Date(createdMs).toISOString();
  return {
    id: `ord_bench${String(i).padStart(8, '0')}`,
    discount: '15%',
    daysSupply: 30,
    orderType: 'ONE_TIME',
    shippingMethod: 'STANDARD',
    status: statusFor(ageDays, i),
    statusPrecision: 'exact',
    fulfillmentInfo: null,
    customer: {
      sourceId: `patient-${String(i % 20_000).padStart(5, '0')}`,
      firstName: FIRST[i % FIRST.length]!,
      lastName: `${LAST[Math.floor(i / FIRST.length) % LAST.length]!}-${i % 997}`,
      email: null,
      phone: null,
      address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
    },
    lineItems: [
      {
        productId: 1001,
        quantity: 2,
        packDescription: '1 capsule',
        price: '0.18',
        discountedPrice: '0.15',
        administration: { morning: 1, afternoon: 0, evening: 0, sleep: 1 },
        name: 'Magnesium Glycinate 120 mg',
        totalPrice: '9.00',
        external: false,
        imageUrl: null,
      },
    ],
    subtotalPrice: '9.00',
    totalDiscount: '1.80',
    totalFees: '0.00',
    totalShipping: '7.95',
    totalVolumeDiscount: '0.00',
    totalPrice: '16.95',
    createdAt: created,
    updatedAt: created,
  };
}

/**
 * Fills the store with `count` bench orders in one transaction. nextPollAt null: the poller leaves
 * them alone, so that it does not share the cores with what is measured.
 */
export function insertBenchOrders(store: LocalStore, count: number, now = Date.now()): void {
  store.transaction(() => {
    for (let i = 0; i < count; i++)
      store.orders.upsert(benchOrder(i, count, now), { source: 'pulled', nextPollAt: null });
  });
}
