import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { BatchItemView } from '@shared/work-views';
import { refusalText } from '@renderer/lib/server-issues';
import { useBatchItems } from '@renderer/stores/batch-reads';
import { useBatchesStore } from '@renderer/stores/batches-store';
import { toast } from '@renderer/stores/toast-store';

interface Props {
  batchId: string;
  /** Called once when the server refused the order, with its reason. */
  onRejected(message: string | null): void;
  onCreated(): void;
}

/**
 * The one box the progress is shown in, whatever its state: it takes the focus when the order is
 * sent and the focus was lost (Order now is disabled while the order is followed, so the closing
 * confirmation cannot give the focus back to it), so that the keyboard goes on from the outcome
 * and its link to the order instead of from the page body.
 */
function ProgressBox({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After this commit's effects: the confirmation closes and gives the focus back in them. Not
    // a frame later: under load a frame can come after the order's outcome and the user's Tab.
    const timer = setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected)
        box.current?.focus({ preventScroll: true });
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div ref={box} tabIndex={-1} className="order-progress-box">
      {children}
    </div>
  );
}

/**
 * An order sent is not among what Undo takes back (docs/decisions.md, "Undo and redo"): its toast
 * says so, and offers the one way back there is, cancelling it while it is NEW.
 */
function toldSent(orderId: string, status: string | null): void {
  const cancellable = status === null || status === 'NEW';
  toast.success(
    `Order ${orderId} created.`,
    cancellable
      ? 'A sent order cannot be undone; while it is New it can be cancelled.'
      : 'A sent order cannot be undone.',
    cancellable
      ? {
          action: {
            label: 'Cancel order',
            run: () => void useBatchesStore.getState().cancelOrder(orderId),
          },
        }
      : {},
  );
}

/** Follows one order (a batch of one) until it is created or refused. */
export function OrderProgress(props: Props) {
  return (
    <ProgressBox>
      <OrderProgressState {...props} />
    </ProgressBox>
  );
}

function OrderProgressState({ batchId, onRejected, onCreated }: Props) {
  const items = useBatchItems(batchId);
  const item: BatchItemView | null = items.data?.[0] ?? null;
  const settledAs = item?.state === 'done' || item?.state === 'rejected' ? item.state : null;
  const told = useRef<string | null>(null);
  useEffect(() => {
    // Told once per batch, when its one order is created or refused.
    if (!item || !settledAs || told.current === batchId) return;
    told.current = batchId;
    if (settledAs === 'rejected') onRejected(item.message);
    else {
      if (item.orderId) toldSent(item.orderId, item.orderStatus);
      onCreated();
    }
  }, [batchId, item, settledAs, onRejected, onCreated]);

  if (!item || item.state === 'queued' || item.state === 'sending') {
    return (
      <p className="notice notice-info order-progress" role="status" data-order="sending">
        <Loader2 aria-hidden="true" size={16} className="spin" /> Sending the order…
        {item?.message ? ` Last try: ${item.message}` : ''}
      </p>
    );
  }
  if (item.state === 'in_doubt') {
    return (
      <p className="notice notice-warn order-progress" role="status" data-order="in-doubt">
        <Loader2 aria-hidden="true" size={16} className="spin" /> In doubt: checking with the server
        whether the order was created. It is never sent twice.
      </p>
    );
  }
  if (item.state === 'rejected') {
    return (
      <div className="notice notice-error order-progress" role="status" data-order="rejected">
        <p className="notice-title">
          <AlertTriangle aria-hidden="true" size={16} /> The server refused the order
        </p>
        <p>{refusalText(item.message)} Fix it and place the order again: nothing was ordered.</p>
      </div>
    );
  }
  return (
    <p className="notice notice-success order-progress" role="status" data-order="created">
      <CheckCircle2 aria-hidden="true" size={16} /> Order created:{' '}
      {item.orderId ? (
        <Link href={`/orders/${encodeURIComponent(item.orderId)}`}>{item.orderId}</Link>
      ) : (
        'the server has it.'
      )}
    </p>
  );
}
