import { useId, useState, type FormEvent } from 'react';
import type { AppOrder } from '@shared/api';
import { PRACTICE_TARGET_STATUSES, type PracticeTargetStatus } from '@shared/practice-views';
import { formatMoment } from '@renderer/lib/dates';
import { call, errorMessage } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';
import { orderStatusLabel } from '@renderer/screens/orders/order-filters';
import { patientName } from '@renderer/screens/orders/order-format';

/** The orders a move may start from: those not yet at the end of the chain. */
const movable = (order: AppOrder) => !['DELIVERED', 'CANCELLED'].includes(order.status);

/** Moves one order of the sandbox along the fulfillment chain, up to any status ahead of it. */
export function MoveOrder({ disabled }: { disabled: boolean }) {
  const orders = useLiveQuery(() => call('orders.list', { limit: 100 }), [], ['orders']);
  const choices = (orders.data?.orders ?? []).filter(movable);
  const [orderId, setOrderId] = useState('');
  const [to, setTo] = useState<PracticeTargetStatus>('SHIPPED');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [moved, setMoved] = useState<AppOrder | null>(null);
  const orderFieldId = useId();
  const statusFieldId = useId();
  const chosen = choices.some((o) => o.id === orderId) ? orderId : (choices[0]?.id ?? '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    setBusy(true);
    setError(null);
    const result = await call('practice.advanceOrder', { orderId: chosen, to });
    setBusy(false);
    if (result.ok) setMoved(result.value);
    else {
      setMoved(null);
      setError(errorMessage(result.error));
    }
  };

  const info = moved?.fulfillmentInfo;
  return (
    <section className="card" aria-labelledby="practice-move-heading">
      <h2 id="practice-move-heading">Move an order</h2>
      <p className="field-hint">
        As the fulfillment partner would: each step on the way is announced to the app, and from
        Shipped on the order carries its carrier and tracking number.
      </p>
      <form className="practice-form" aria-label="Move an order" onSubmit={(e) => void submit(e)}>
        <div className="field-row">
          <div className="field">
            <label className="field-label" htmlFor={orderFieldId}>
              Order
            </label>
            <select
              id={orderFieldId}
              className="input select"
              value={chosen}
              disabled={choices.length === 0}
              onChange={(event) => setOrderId(event.target.value)}
            >
              {choices.length === 0 && <option value="">No order to move yet</option>}
              {choices.map((order) => (
                <option key={order.id} value={order.id}>
                  {`${patientName(order)}, ${order.id} (${orderStatusLabel(order.status)})`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={statusFieldId}>
              Move to
            </label>
            <select
              id={statusFieldId}
              className="input select"
              value={to}
              onChange={(event) => setTo(event.target.value as PracticeTargetStatus)}
            >
              {PRACTICE_TARGET_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {orderStatusLabel(status)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="form-actions form-actions-start">
          <button
            type="submit"
            className="button button-primary"
            disabled={disabled || busy || !chosen}
            aria-busy={busy}
          >
            Move order
          </button>
        </div>
      </form>
      <div role="status" className="practice-result">
        {moved && (
          <p>
            {`Order ${moved.id} is now ${orderStatusLabel(moved.status)}`}
            {info?.trackingNumber
              ? `: shipped by ${info.carrier ?? 'the carrier'}, tracking number ${info.trackingNumber}.`
              : '.'}{' '}
            <span className="muted">{`Updated ${formatMoment(moved.updatedAt)}.`}</span>
          </p>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
