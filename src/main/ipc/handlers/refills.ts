import { refillsDue } from '@main/orders/refills';
import { catalogNames, toSummaryView } from '../views';
import { requireSession, type AreaHandlers, type IpcHandlerDeps } from './context';

/** refills.due: the protocols whose supply runs out soon, and those never ordered. */
export function refillsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'refills'> {
  const session = () => requireSession(core);
  return {
    'refills.due': async ({ withinDays }) => {
      // Days left count from the server's time, as the orders' dates do.
      const { due, neverOrdered } = refillsDue(core.store, session().serverTime.now(), withinDays);
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
    },
  };
}
