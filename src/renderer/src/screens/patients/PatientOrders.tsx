import { ExternalLink, Loader2, RotateCcw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { PatientOrderView, PatientProtocolView } from '@shared/patient-views';
import { Empty } from '@renderer/components/States';
import { formatDate } from '@renderer/lib/dates';
import { formatMoney } from '@renderer/lib/format';
import { errorMessage } from '@renderer/lib/ipc';
import { openExternal } from '@renderer/lib/open-external';
import { toast } from '@renderer/stores/toast-store';
import { trackingPage } from '@renderer/lib/order-format';
import { OrderStatusBadge } from '@renderer/components/OrderStatusBadge';
import { protocolLabel } from './PatientProtocols';

/** Opens a tracking page outside the app, as the order's own screen does. */
async function openTracking(url: string): Promise<void> {
  const result = await openExternal(url);
  if (!result.ok) toast.error('The tracking page could not be opened.', errorMessage(result.error));
}

function Tracking({ tracking }: { tracking: PatientOrderView['tracking'] }) {
  if (!tracking) return <span className="muted">No tracking yet</span>;
  const page = trackingPage({ ...tracking, trackingStatus: null, checkpoints: null });
  const carrier = tracking.carrier ?? 'Shipped';
  return (
    <>
      {page ? (
        <button
          type="button"
          className="patient-link-button"
          onClick={() => void openTracking(page)}
        >
          {carrier} <ExternalLink aria-hidden="true" size={12} />
          <span className="visually-hidden"> tracking page (opens outside the app)</span>
        </button>
      ) : (
        <span>{carrier}</span>
      )}
      {tracking.trackingNumber && (
        <span className="patient-tracking-number code">{tracking.trackingNumber}</span>
      )}
    </>
  );
}

/** Rows painted with the screen; the rest follow a batch per task, so the first paint is quick. */
const FIRST_ROWS = 30;
const MORE_ROWS = 120;

/**
 * How many of `total` rows to render: FIRST_ROWS at once, then MORE_ROWS more after each paint
 * until all are in (a patient with hundreds of orders shows its newest at once, the whole table
 * a few frames later, and never a long task that holds the first paint back).
 */
function useRowsShown(total: number): number {
  const [shown, setShown] = useState(FIRST_ROWS);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setShown((n) => n + MORE_ROWS), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  return Math.min(shown, total);
}

/**
 * Every order of the patient, newest first: its status, tracking, the protocol it came from
 * (when this desk made it from one), and Order again.
 */
export function PatientOrders({
  orders,
  protocols,
  reviewingId,
  onReorder,
}: {
  orders: readonly PatientOrderView[];
  protocols: readonly PatientProtocolView[];
  /** The order whose review is being read (its button shows it). */
  reviewingId: string | null;
  onReorder(orderId: string): void;
}) {
  const shown = useRowsShown(orders.length);
  if (orders.length === 0) return <Empty title="No order for this patient yet." />;
  const protocolOf = new Map(protocols.map((p) => [p.protocol.localId, p]));
  return (
    <div className="patient-table-wrap">
      <table className="table patient-table patient-orders">
        <caption className="visually-hidden">The patient&apos;s orders, newest first</caption>
        {/* Fixed layout: the widths do not wait for every row, nor move as more rows come. */}
        <colgroup>
          <col className="patient-col-order" />
          <col className="patient-col-date" />
          <col className="patient-col-status" />
          <col />
          <col />
          <col className="patient-col-total" />
          <col className="patient-col-actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Ordered on</th>
            <th scope="col">Status</th>
            <th scope="col">Tracking</th>
            <th scope="col">From protocol</th>
            <th scope="col" className="num">
              Total
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.slice(0, shown).map((o) => {
            const protocol = o.protocolLocalId ? protocolOf.get(o.protocolLocalId) : undefined;
            const busy = reviewingId === o.id;
            return (
              <tr key={o.id}>
                <th scope="row">
                  <Link href={`/orders/${encodeURIComponent(o.id)}`} className="code">
                    {o.id}
                  </Link>
                  <span className="patient-order-products muted">{o.products.join(', ')}</span>
                </th>
                <td className="patient-date">{formatDate(o.createdAt)}</td>
                <td>
                  <OrderStatusBadge status={o.status} />
                </td>
                <td>
                  <Tracking tracking={o.tracking} />
                </td>
                <td>
                  {o.protocolLocalId ? (
                    <Link href={`/protocols/${o.protocolLocalId}`}>
                      {protocol ? protocolLabel(protocol) : 'Its protocol (deleted)'}
                    </Link>
                  ) : (
                    <span className="muted">None here</span>
                  )}
                </td>
                <td className="num patient-total">
                  {o.totalPrice ? formatMoney(o.totalPrice) : '–'}
                </td>
                <td className="patient-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => onReorder(o.id)}
                    aria-busy={busy}
                    aria-label={`Order again: order ${o.id}`}
                    title="Order again"
                  >
                    {busy ? (
                      <Loader2 aria-hidden="true" size={14} className="spin" />
                    ) : (
                      <RotateCcw aria-hidden="true" size={14} />
                    )}
                    <span className="patient-again-text"> Order again</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
