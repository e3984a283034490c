import { RefreshCw } from 'lucide-react';
import { useLocation } from 'wouter';
import { Failed, Loading } from '@renderer/components/States';
import { formatDateTime } from '@renderer/lib/dates';
import '@renderer/styles/dashboard.css';
import { BatchesSection } from './BatchesSection';
import { OrdersSection } from './OrdersSection';
import { ProductsSection } from './ProductsSection';
import { RefillsSection } from './RefillsSection';
import { useDashboard } from './use-dashboard';

/**
 * The dashboard: orders and their totals per week and month, the top products, refills coming
 * due and recent batches, all from the local mirror (so it works offline) and read again when
 * they change. Each chart has its table behind it.
 */
export default function DashboardScreen() {
  const state = useDashboard();
  const [, navigate] = useLocation();
  const view = state.data;
  return (
    <div className="screen dashboard-screen">
      <div className="screen-head">
        <h1>Dashboard</h1>
        <button
          type="button"
          className="button"
          onClick={state.refresh}
          disabled={state.status === 'loading'}
        >
          <RefreshCw aria-hidden="true" size={15} />
          Refresh
        </button>
      </div>
      {state.status === 'failed' && (
        <Failed
          what="The dashboard could not be read."
          error={state.error}
          onRetry={state.refresh}
        />
      )}
      {!view && state.status === 'loading' && <Loading label="Counting the orders…" />}
      {view && (
        <>
          <p className="muted dashboard-as-of">
            From the orders this app keeps, as of {formatDateTime(view.asOf)} (server time); it
            works offline.
          </p>
          <OrdersSection months={view.months} weeks={view.weeks} />
          <ProductsSection byQuantity={view.topByQuantity} bySpend={view.topBySpend} />
          <div className="dashboard-grid">
            <RefillsSection refills={view.refills} asOf={view.asOf} onDay={navigate} />
            <BatchesSection view={view} />
          </div>
        </>
      )}
    </div>
  );
}
