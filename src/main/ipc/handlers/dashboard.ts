import { dashboardSummary } from '@main/dashboard/dashboard-summary';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/** dashboard.*: the first screen's figures, from the local mirror. */
export function dashboardHandlers({ core }: IpcHandlerDeps): AreaHandlers<'dashboard'> {
  const withSession = sessionWrapper(core);
  return {
    // Counted from the server's time, as the orders' dates and Refills due are.
    'dashboard.summary': withSession(async (_args, s) =>
      dashboardSummary(core.store, s.serverTime.now()),
    ),
  };
}
