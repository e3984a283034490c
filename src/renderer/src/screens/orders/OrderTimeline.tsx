import type { AppOrder } from '@shared/api';
import { Failed, Loading } from '@renderer/components/States';
import { formatDateTime } from '@renderer/lib/dates';
import { OrderStatusBadge } from '@renderer/components/OrderStatusBadge';
import { useOrderTimeline } from './use-order-detail';

/** The statuses this app saw the order take, oldest first, with when it saw each. */
export function OrderTimeline({ order }: { order: AppOrder }) {
  const timeline = useOrderTimeline(order);
  const changes = timeline.data;
  return (
    <section className="order-section" aria-labelledby="order-timeline-heading">
      <h3 id="order-timeline-heading">Status timeline</h3>
      {timeline.status === 'loading' ? (
        <Loading label="Loading the timeline…" />
      ) : !changes ? (
        <Failed
          what="The timeline could not be loaded."
          error={timeline.error!}
          onRetry={timeline.refresh}
        />
      ) : changes.length === 0 ? (
        <p className="muted">No status seen yet: it appears once the order has been read.</p>
      ) : (
        <ol className="order-timeline" aria-label="Status changes">
          {changes.map((change, i) => (
            <li
              key={`${change.status}-${change.seenAt}-${i}`}
              className="order-timeline-step"
              aria-current={i === changes.length - 1 ? 'step' : undefined}
            >
              <span className="order-timeline-dot" aria-hidden="true" />
              <OrderStatusBadge status={change.status} />
              <span className="muted">
                seen <time dateTime={change.seenAt}>{formatDateTime(change.seenAt)}</time>
              </span>
            </li>
          ))}
        </ol>
      )}
      {order.statusPrecision === 'coarse' && (
        <p className="field-hint">
          This server reports statuses in less detail: Processing also covers Dispensing and Filled,
          and Shipped covers Delivered.
        </p>
      )}
    </section>
  );
}
