import { z } from 'zod';
import { Money } from './api';
import { centsToMoney, moneyToCents } from './money';

/**
 * What became of orders as the app knows them now (the mirror's status, kept by the poller): the
 * one rule every count and total of orders made here follows (a batch, all batches, a patient),
 * so that no two screens disagree on what was charged.
 */

/** Orders and what they cost, as the server priced them. */
export const OrderTally = z.object({ orders: z.int().min(0), amount: Money });
export type OrderTally = z.infer<typeof OrderTally>;

export const OrderOutcomeView = z.object({
  /** Created and not cancelled: these are charged. */
  standing: OrderTally,
  /** Created, then cancelled: not charged. */
  cancelled: OrderTally,
  /** Refused by the server: never created, nothing charged. */
  refused: z.int().min(0),
});
export type OrderOutcomeView = z.infer<typeof OrderOutcomeView>;

/** An order stands until it is cancelled; a status the app does not know is not final, so it stands. */
export const isStanding = (status: string): boolean => status !== 'CANCELLED';

/** The outcome of created orders (their status and price as mirrored) and of `refused` refusals. */
export function tallyOrders(
  orders: Iterable<{ status: string; totalPrice: string | null }>,
  refused: number,
): OrderOutcomeView {
  const standing = { orders: 0, cents: 0 };
  const cancelled = { orders: 0, cents: 0 };
  for (const order of orders) {
    const tally = isStanding(order.status) ? standing : cancelled;
    tally.orders += 1;
    if (order.totalPrice !== null) tally.cents += moneyToCents(order.totalPrice);
  }
  return {
    standing: { orders: standing.orders, amount: centsToMoney(standing.cents) },
    cancelled: { orders: cancelled.orders, amount: centsToMoney(cancelled.cents) },
    refused,
  };
}

/** The outcomes of several (all batches): each part summed. */
export function sumOutcomes(outcomes: Iterable<OrderOutcomeView>): OrderOutcomeView {
  const sum = (a: OrderTally, b: OrderTally): OrderTally => ({
    orders: a.orders + b.orders,
    amount: centsToMoney(moneyToCents(a.amount) + moneyToCents(b.amount)),
  });
  let total = tallyOrders([], 0);
  for (const o of outcomes)
    total = {
      standing: sum(total.standing, o.standing),
      cancelled: sum(total.cancelled, o.cancelled),
      refused: total.refused + o.refused,
    };
  return total;
}
