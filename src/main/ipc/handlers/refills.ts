import { refillsDue } from '@main/orders/refills';
import { catalogNames, toSummaryView } from '../views';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/** refills.due: the protocols whose supply runs out soon, and those never ordered. */
export function refillsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'refills'> {
  const withSession = sessionWrapper(core);
  return {
    'refills.due': withSession(async ({ withinDays }, s) => {
      // Days left count from the server's time, as the orders' dates do.
      const { due, neverOrdered } = refillsDue(core.store, s.serverTime.now(), withinDays);
      return {
        due: due.map((r) => ({
          protocol: toSummaryView(r.protocol, catalogNames(core.store)),
          lastOrderId: r.lastOrderId,
          lastOrderedAt: r.lastOrderedAt,
          daysSupply: r.daysSupply,
          runsOutAt: new Date(r.runsOutAt).toISOString(),
          daysLeft: r.daysLeft,
          daysEarly: r.daysEarly,
        })),
        neverOrdered: neverOrdered.map((p) => toSummaryView(p, catalogNames(core.store))),
      };
    }),
  };
}
