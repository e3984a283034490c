import { useEffect, useRef, useState } from 'react';
import { Dialog } from '@renderer/components/Dialog';
import { plural } from '@renderer/lib/format';
import { useOrdersStore } from '@renderer/stores/orders-store';
import {
  planBulkCancel,
  runBulkCancel,
  type BulkCancelLine,
  type BulkCancelPlan,
} from './bulk-cancel';

type Phase =
  | { kind: 'reading' }
  | { kind: 'confirm'; plan: BulkCancelPlan }
  | { kind: 'running' | 'done'; plan: BulkCancelPlan; lines: BulkCancelLine[] };

/** The orders not cancelled, each with why: nothing is left out silently. */
function NotCancelled({ lines }: { lines: BulkCancelLine[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="bulk-cancel-lines" aria-label="Orders not cancelled">
      {lines.map((l) => (
        <li key={l.orderId}>
          <strong>
            Order <span className="order-id">{l.orderId}</span>
            {l.patient ? ` (${l.patient})` : ''}
          </strong>
          : {l.reason}
        </li>
      ))}
    </ul>
  );
}

/**
 * Bulk cancel of the queue's selection: reads the selected orders, confirms how many New ones
 * will be cancelled and that the others are left, then cancels them one after another and
 * reports each order that was not cancelled with its reason.
 */
export function BulkCancelDialog({
  open,
  onClose,
}: {
  open: boolean;
  /** `done`: closed on the report, the cancels made (the selection is then let go). */
  onClose: (done: boolean) => void;
}) {
  const [phase, setPhase] = useState<Phase>({ kind: 'reading' });
  // The dialog's safe button takes the focus as each step appears (Keep, then Close).
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => safe.current?.focus(), [phase.kind]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setPhase({ kind: 'reading' });
    void planBulkCancel([...useOrdersStore.getState().selected]).then((plan) => {
      if (live) setPhase({ kind: 'confirm', plan });
    });
    return () => {
      live = false;
    };
  }, [open]);

  const run = async (plan: BulkCancelPlan) => {
    const lines: BulkCancelLine[] = [];
    setPhase({ kind: 'running', plan, lines: [] });
    await runBulkCancel(plan.toCancel, (line) => {
      lines.push(line);
      setPhase({ kind: 'running', plan, lines: [...lines] });
    });
    setPhase({ kind: 'done', plan, lines });
  };

  const close = () => {
    if (phase.kind === 'running') return;
    onClose(phase.kind === 'done');
  };

  let body;
  if (phase.kind === 'reading') {
    body = <p role="status">Reading the selected orders…</p>;
  } else if (phase.kind === 'confirm') {
    const { toCancel, left } = phase.plan;
    body = (
      <>
        <div className="dialog-body">
          <p>
            {toCancel.length === 0
              ? 'None of the selected orders is New, so none can be cancelled.'
              : `${plural(toCancel.length, 'New order')} will be cancelled on the server, one after another. This cannot be undone.`}
            {left.length > 0 &&
              ` ${plural(left.length, 'selected order is', 'selected orders are')} not New and will be left as ${left.length === 1 ? 'it is' : 'they are'}:`}
          </p>
          <NotCancelled lines={left} />
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" ref={safe} onClick={close}>
            Keep the orders
          </button>
          {toCancel.length > 0 && (
            <button
              type="button"
              className="button button-danger"
              onClick={() => void run(phase.plan)}
            >
              Cancel {plural(toCancel.length, 'order')}
            </button>
          )}
        </div>
      </>
    );
  } else {
    const { plan, lines } = phase;
    const cancelled = lines.filter((l) => l.outcome === 'cancelled').length;
    const notCancelled = [...lines.filter((l) => l.outcome !== 'cancelled'), ...plan.left];
    const running = phase.kind === 'running';
    body = (
      <>
        <div className="dialog-body">
          <p role="status" className="bulk-cancel-summary">
            {running
              ? `Cancelling… ${lines.length} of ${plural(plan.toCancel.length, 'order')} done.`
              : `${plural(cancelled, 'order')} cancelled. ${
                  notCancelled.length === 0
                    ? 'Every selected order is cancelled.'
                    : `${plural(notCancelled.length, 'order was', 'orders were')} not cancelled:`
                }`}
          </p>
          {!running && <NotCancelled lines={notCancelled} />}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" ref={safe} disabled={running} onClick={close}>
            Close
          </button>
        </div>
      </>
    );
  }

  return (
    <Dialog
      open={open}
      title={
        phase.kind === 'done'
          ? 'Bulk cancel finished'
          : phase.kind === 'running'
            ? 'Cancelling the selected orders'
            : 'Cancel the selected orders?'
      }
      onClose={close}
      alert
    >
      {body}
    </Dialog>
  );
}
