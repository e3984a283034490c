/**
 * A patient's supply of one content (the same products, quantities and doses: sameOrderContent)
 * and when a new order of it is due. The one definition the duplicate check, Refills due and the
 * protocol list's next refill share (docs/decisions.md, "Supply, due and held"); migration 14
 * computes the same runs-out date in SQL.
 */

export const DAY_MS = 86_400_000;

/**
 * A refill is due this many whole days before the supply runs out: ordered then, it is no
 * duplicate; ordered earlier, it is "N days early" and a possible duplicate unless a person says
 * it is meant.
 */
export const REFILL_LEAD_DAYS = 7;

export interface SupplyOrder {
  /** The server's createdAt (ISO 8601). */
  createdAt: string;
  daysSupply: number;
  id: string;
}

/**
 * The orders (not cancelled, of one patient and content, each with its own days supply) that supply the patient now, oldest
 * first, and when their supply runs out (epoch ms). Orders that overlap add up: each starts when
 * the one before it runs out, so two 30-day orders ten days apart run out 60 days after the
 * first. An order made after the supply ran out starts a new supply. Null when there is none.
 */
export function currentSupply<T extends SupplyOrder>(
  orders: readonly T[],
): { runsOutAt: number; orders: T[] } | null {
  const sorted = [...orders].sort(
    (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1),
  );
  let runsOutAt = -Infinity;
  let run: T[] = [];
  for (const order of sorted) {
    const at = Date.parse(order.createdAt);
    if (at >= runsOutAt) run = [];
    run.push(order);
    runsOutAt = Math.max(runsOutAt, at) + order.daysSupply * DAY_MS;
  }
  return run.length === 0 ? null : { runsOutAt, orders: run };
}

/** Whole days from `now` until the supply runs out (floor; negative once it has). */
export const daysLeft = (runsOutAt: number, now: number): number =>
  Math.floor((runsOutAt - now) / DAY_MS);

/**
 * How many days early an order made `now` would be (0: due). A supply with more than
 * REFILL_LEAD_DAYS whole days left is still held: a new order of it may be a duplicate.
 */
export const daysEarly = (runsOutAt: number, now: number): number =>
  Math.max(0, daysLeft(runsOutAt, now) - REFILL_LEAD_DAYS);
