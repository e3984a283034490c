import type { RepeatedOrderView } from '@shared/work-views';
import { humanize } from '@renderer/lib/format';
import { ORDER_STATUS_LABELS } from '@renderer/lib/order-filters';
import { formatDateTime } from '@renderer/lib/dates';

/** An order status in words, whatever the server sent. */
export const statusWords = (status: string): string =>
  (ORDER_STATUS_LABELS as Record<string, string | undefined>)[status] ??
  humanize(status.toLowerCase());

/** The orders a new one would repeat: each with its link, status and when it was made. */
export function RepeatedOrders({
  orders,
  label,
}: {
  orders: readonly RepeatedOrderView[];
  label: string;
}) {
  return (
    <ul className="repeated-orders" aria-label={label}>
      {orders.map((o, i) =>
        o.orderId === null ? (
          <li key={`sending-${i}`}>An order with the same content is being sent from this desk</li>
        ) : (
          <li key={o.orderId}>
            <a href={`#/orders/${encodeURIComponent(o.orderId)}`} className="code">
              <span className="visually-hidden">Order </span>
              {o.orderId}
            </a>
            {o.status && <span> · {statusWords(o.status)}</span>}
            {o.createdAt && <span className="muted"> · made {formatDateTime(o.createdAt)}</span>}
          </li>
        ),
      )}
    </ul>
  );
}
