import type { DashboardView } from '@shared/dashboard-views';
import { useLiveQuery } from '@renderer/lib/use-query';

/**
 * dashboard.summary, a live query: read again when orders, batches, jobs or protocols change
 * (a status the poller found, a batch's orders, a protocol edited), so the figures follow the
 * mirror; it answers offline as well, from what this app keeps.
 */
export function useDashboard() {
  return useLiveQuery<DashboardView>((read) => read('dashboard.summary', {}), []);
}
