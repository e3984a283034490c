import {
  Ban,
  CheckCircle2,
  Clock,
  CopyCheck,
  RotateCcw,
  SearchCheck,
  Send,
  XCircle,
} from 'lucide-react';
import type { BatchItemView } from '@shared/work-views';
import { useBatchesStore } from '@renderer/stores/batches-store';
import { OrderStatusBadge } from '@renderer/components/OrderStatusBadge';
import { ITEM_STATE_LABELS } from '@renderer/components/batch-labels';
import { PossibleDuplicates } from './PossibleDuplicates';
import { RepeatedOrders } from '@renderer/components/RepeatedOrders';

const ICONS = {
  queued: Clock,
  sending: Send,
  in_doubt: SearchCheck,
  done: CheckCircle2,
  rejected: XCircle,
} as const;

/** What became of one protocol's order, and what can be done about it. */
export function ItemRow({ batchId, item }: { batchId: string; item: BatchItemView }) {
  const retrying = useBatchesStore((s) => s.retrying[item.seq] === true);
  const retry = useBatchesStore((s) => s.retry);
  const held = item.state === 'rejected' && item.held.length > 0;
  // A created order cancelled since is shown as cancelled: the batch no longer charges it.
  const cancelled = item.state === 'done' && item.orderStatus === 'CANCELLED';
  const Icon = held ? CopyCheck : cancelled ? Ban : ICONS[item.state];
  const stateKey = held ? 'held' : cancelled ? 'cancelled' : item.state;
  const name = item.customerName || item.sourceId;
  return (
    <div className="batch-item-row">
      <span className="batch-item-seq muted" aria-hidden="true">
        {item.seq + 1}
      </span>
      <span className="batch-item-who">
        <span className="batch-item-name">{name}</span>
        <span className="muted code">{item.sourceId}</span>
      </span>
      <span className={`item-state item-state-${stateKey}`}>
        <Icon aria-hidden="true" size={15} />
        {held ? 'Held back' : cancelled ? 'Cancelled' : ITEM_STATE_LABELS[item.state]}
      </span>
      <span className="batch-item-detail">
        {item.state === 'done' && item.orderId && (
          <a href={`#/orders/${encodeURIComponent(item.orderId)}`} className="code">
            <span className="visually-hidden">Order </span>
            {item.orderId}
          </a>
        )}
        {item.state === 'done' && item.orderStatus && (
          <span className="batch-item-status">
            <span className="visually-hidden">Status now: </span>
            <OrderStatusBadge status={item.orderStatus} />
          </span>
        )}
        {item.possibleDuplicates.length > 0 && (
          <PossibleDuplicates duplicates={item.possibleDuplicates} name={name} />
        )}
        {held && (
          <>
            <span className="batch-item-reason">{item.message}</span>
            <RepeatedOrders orders={item.held} label={`Orders ${name} already has`} />
            <span className="batch-item-actions">
              <button
                type="button"
                className="button button-small"
                onClick={() => void retry(batchId, item.seq, { sendAnyway: true })}
                disabled={retrying}
                aria-busy={retrying}
                aria-label={`Send the order of ${name} anyway`}
              >
                <Send aria-hidden="true" size={14} />
                Send anyway
              </button>
            </span>
          </>
        )}
        {item.state === 'in_doubt' && (
          <span className="muted">Being checked with the server; nothing is sent twice.</span>
        )}
        {item.state === 'queued' && item.attempts > 0 && item.message && (
          <span className="muted">Will try again: {item.message}</span>
        )}
        {item.state === 'rejected' && !held && (
          <>
            <span className="batch-item-reason">{item.message ?? 'The server refused it.'}</span>
            <span className="batch-item-actions">
              {item.protocolLocalId ? (
                <a
                  href={`#/protocols/${item.protocolLocalId}`}
                  className="button button-small"
                  aria-label={`Fix protocol of ${name}`}
                >
                  Fix protocol
                </a>
              ) : (
                <span className="muted">The protocol no longer exists.</span>
              )}
              {item.protocolLocalId && (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => void retry(batchId, item.seq)}
                  disabled={retrying}
                  aria-busy={retrying}
                  aria-label={`Retry order of ${name}`}
                >
                  <RotateCcw aria-hidden="true" size={14} />
                  Retry
                </button>
              )}
            </span>
          </>
        )}
      </span>
    </div>
  );
}
