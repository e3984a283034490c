import { DashboardView } from '../dashboard-views';
import { None, read, type AreaChannels } from './channel';

/** dashboard.*: the first screen's figures, from the local mirror. */
export const dashboardChannels = {
  /** Orders by week and month, top products, refills coming due, recent batches. */
  'dashboard.summary': read(None, DashboardView, ['orders', 'batches', 'jobs', 'protocols']),
} as const satisfies AreaChannels<'dashboard'>;
