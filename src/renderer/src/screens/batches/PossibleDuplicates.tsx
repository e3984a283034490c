import { Ban } from 'lucide-react';
import { useState } from 'react';
import type { PossibleDuplicateView } from '@shared/work-views';
import { ConfirmDialog } from '@renderer/components/Dialog';
import { useBatchesStore } from '@renderer/stores/batches-store';
import { statusWords } from '@renderer/components/RepeatedOrders';

/**
 * Orders found after the batch that may repeat this item's: the later of each pair, the same on
 * every desk. One that is still NEW can be cancelled here, after a confirmation.
 */
export function PossibleDuplicates({
  duplicates,
  name,
}: {
  duplicates: readonly PossibleDuplicateView[];
  name: string;
}) {
  const cancelling = useBatchesStore((s) => s.cancelling);
  const cancelOrder = useBatchesStore((s) => s.cancelOrder);
  const [asking, setAsking] = useState<PossibleDuplicateView | null>(null);
  // Every repeat already cancelled by the app: settled, nothing for a person to look at.
  const settled = duplicates.every((d) => d.autoCancel === 'done');
  return (
    <div
      className="possible-duplicates"
      role="group"
      aria-label={`${settled ? 'Repeats cancelled' : 'Possible duplicates'} for ${name}`}
    >
      <p className={settled ? 'muted' : 'batch-item-reason'}>
        {settled ? 'Repeat cancelled' : 'Possible duplicate'}: {name} has{' '}
        {duplicates.length === 1 ? 'another order' : 'other orders'} with the same products and
        doses.
      </p>
      <ul className="repeated-orders">
        {duplicates.map((d) => (
          <li key={d.orderId}>
            <a href={`#/orders/${encodeURIComponent(d.orderId)}`} className="code">
              <span className="visually-hidden">Order </span>
              {d.orderId}
            </a>
            {d.status && <span> · {statusWords(d.status)}</span>}
            <span className="muted"> · repeats {d.of}</span>
            {d.autoCancel === 'done' || d.autoCancel === 'pending' ? (
              <span className="auto-cancel">
                {' '}
                ·{' '}
                {d.autoCancel === 'done'
                  ? 'Cancelled by Order Desk: another desk ordered the same at the same moment; its order is kept.'
                  : 'Another desk ordered the same at the same moment: Order Desk is cancelling this one.'}
              </span>
            ) : d.status === 'NEW' ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => setAsking(d)}
                disabled={cancelling[d.orderId] === true}
                aria-busy={cancelling[d.orderId] === true}
                aria-label={`Cancel order ${d.orderId}`}
              >
                <Ban aria-hidden="true" size={14} />
                Cancel it
              </button>
            ) : (
              d.status !== 'CANCELLED' && (
                <span className="muted"> · past NEW: it can no longer be cancelled here</span>
              )
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        title={`Cancel order ${asking?.orderId ?? ''}?`}
        confirmLabel="Cancel the order"
        onConfirm={() => {
          if (asking) void cancelOrder(asking.orderId);
          setAsking(null);
        }}
        onCancel={() => setAsking(null)}
      >
        <p>
          Order {asking?.orderId} has the same patient, products and doses as order {asking?.of}.
          Cancel it if the patient should get one order only. The other order is kept.
        </p>
      </ConfirmDialog>
    </div>
  );
}
