import { useState, type FormEvent } from 'react';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { formatMoney, plural } from '../../lib/format';
import type { ConnectionView } from '../../../../shared/ipc';

interface Props {
  open: boolean;
  count: number;
  total: string;
  exact: boolean;
  leftOut: number;
  connection: ConnectionView | null;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * "Send these orders?" On a production connection, real orders for real patients: the user
 * types the number of orders, so a stray Enter cannot send a batch.
 */
export function ConfirmSubmit(props: Props) {
  const { open, count, total, exact, leftOut, connection, busy, onConfirm, onCancel } = props;
  const orders = plural(count, 'order');
  const where = connection?.label ?? 'the server';
  const summary = (
    <>
      <p>
        {count === 1 ? 'One order is' : `${orders} are`} created on <strong>{where}</strong>, one
        per protocol, for {exact ? 'a total of' : 'an estimated'} {formatMoney(total)}.
      </p>
      {leftOut > 0 && <p>{plural(leftOut, 'protocol')} left out of the batch will not be sent.</p>}
      <p className="muted">
        The batch keeps going if this window closes or the network drops. New orders can be
        cancelled from the order queue.
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
      confirmLabel={`Send ${orders}`}
      busy={busy}
      danger={false}
      onConfirm={onConfirm}
      onCancel={onCancel}
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
