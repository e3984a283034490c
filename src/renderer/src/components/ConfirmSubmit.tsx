import { useState, type FormEvent } from 'react';
import { ConfirmDialog, Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { formatMoney, plural } from '@renderer/lib/format';
import type { ConnectionView } from '@shared/ipc';
import type { OrderReviewView, RepeatedOrderView } from '@shared/work-views';
import { ConfirmOrderDetails } from '@renderer/components/ConfirmOrderDetails';
import { RepeatedOrders } from '@renderer/components/RepeatedOrders';

interface Props {
  open: boolean;
  count: number;
  /** The estimated total; null when it is not known (`totalUnknown` says why). */
  total: string | null;
  totalUnknown: string | null;
  exact: boolean;
  leftOut: number;
  connection: ConnectionView | null;
  busy: boolean;
  /**
   * One order (Order now, a new order): what it holds, shown in full, and the orders of the same
   * patient and content it would repeat (confirming then orders it again all the same).
   */
  order?: {
    details: OrderReviewView['order'];
    warnings: readonly string[];
    repeats?: readonly RepeatedOrderView[];
  };
  onConfirm(): void;
  onCancel(): void;
}

/**
 * "Send these orders?" for a batch, and for one order (Order now, a new order) as a batch of
 * one. On a production connection, real orders for real patients: the user types the number of
 * orders, so a stray Enter cannot send them.
 */
export function ConfirmSubmit(props: Props) {
  const { open, count, total, totalUnknown, exact, leftOut, connection, busy, order } = props;
  const orders = plural(count, 'order');
  const where = connection?.label ?? 'the server';
  const price =
    total === null ? null : `${exact ? 'a total of' : 'an estimated'} ${formatMoney(total)}`;
  const summary = (
    <>
      <p>
        {count === 1 ? 'One order is' : `${orders} are`} created on <strong>{where}</strong>
        {count === 1 ? '' : ', one per protocol'}
        {price ? `, for ${price}.` : '.'}
      </p>
      {totalUnknown && (
        <p className="notice notice-warn" data-testid="confirm-total-unknown">
          {totalUnknown}
        </p>
      )}
      {order?.repeats && order.repeats.length > 0 && (
        <div className="notice notice-warn" data-testid="confirm-repeats">
          <p className="notice-title">A possible duplicate</p>
          <p>
            This patient already has an order with the same products and doses within its supply:
          </p>
          <RepeatedOrders orders={order.repeats} label="Orders the patient already has" />
          <p>Send it only if a second order is meant.</p>
        </div>
      )}
      {order && (
        <ConfirmOrderDetails
          order={order.details}
          total={total}
          exact={exact}
          warnings={order.warnings}
        />
      )}
      {leftOut > 0 && <p>{plural(leftOut, 'protocol')} left out of the batch will not be sent.</p>}
      <p className="muted">
        {count === 1
          ? 'It is sent even if this window closes or the network drops, and never twice. A new order can be cancelled from the order queue.'
          : 'The batch keeps going if this window closes or the network drops. New orders can be cancelled from the order queue.'}
      </p>
    </>
  );
  if (connection?.kind === 'production') {
    return (
      <ProductionConfirm {...props} orders={orders} open={open}>
        {summary}
      </ProductionConfirm>
    );
  }
  return (
    <ConfirmDialog
      open={open}
      title={`Send ${orders}?`}
      confirmLabel={order?.repeats?.length ? 'Order again anyway' : `Send ${orders}`}
      busy={busy}
      danger={false}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      {summary}
    </ConfirmDialog>
  );
}

function ProductionConfirm({
  open,
  count,
  orders,
  busy,
  onConfirm,
  onCancel,
  children,
}: Props & { orders: string; children: React.ReactNode }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setTyped('');
    setError(undefined);
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() !== String(count)) {
      setError(`Type ${count}, the number of orders, to send them`);
      return;
    }
    setTyped('');
    setError(undefined);
    onConfirm();
  };
  return (
    <Dialog open={open} title={`Send ${orders} to production?`} onClose={close} alert>
      <form onSubmit={submit} aria-label="Confirm the batch" noValidate>
        <div className="dialog-body">
          <p className="notice notice-warn">
            This is a production connection: these are real orders that will be dispensed and
            charged.
          </p>
          {children}
          <Field
            label={`Type ${count} to confirm`}
            inputMode="numeric"
            autoComplete="off"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setError(undefined);
            }}
            error={error}
            data-autofocus
          />
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button-danger" disabled={busy} aria-busy={busy}>
            Send {orders} to production
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * One order's confirmation (Order now in the editor, Order again on a patient): the review main
 * made of it, as a batch of one, with its warnings and the orders it would repeat.
 */
export function ConfirmOneOrder({
  review,
  ...rest
}: {
  review: OrderReviewView;
  open: boolean;
  connection: ConnectionView | null;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <ConfirmSubmit
      {...rest}
      count={1}
      total={review.estimatedTotal}
      totalUnknown={review.totalUnknown}
      exact={review.exact}
      leftOut={0}
      order={{
        details: review.order,
        warnings: review.items.flatMap((i) => i.warnings),
        repeats: review.items.flatMap((i) => i.repeats),
      }}
    />
  );
}
