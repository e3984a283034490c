import { Ban, CalendarDays, RefreshCw, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { AppOrder } from '@shared/api';
import { Dialog } from '@renderer/components/Dialog';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { formatDateTime } from '@renderer/lib/dates';
import { formatMoney } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/ipc';
import { useOrderDetailStore, type ActionNote } from '@renderer/stores/order-detail-store';
import {
  cancelBlockedReason,
  orderScheduleHref,
  orderTypeLabel,
  patientName,
  shippingMethodLabel,
} from '@renderer/lib/order-format';
import { OrderLineItems, OrderTotals } from './OrderLineItems';
import { OrderStatusBadge } from '@renderer/components/OrderStatusBadge';
import { OrderTimeline } from './OrderTimeline';
import { OrderTracking } from './OrderTracking';
import { useMadeFrom, useOrder } from './use-order-detail';
import { patientHref } from '@renderer/lib/patient-href';

function Note({ note }: { note: ActionNote }) {
  const dismiss = useOrderDetailStore((s) => s.dismissNote);
  let body: { tone: 'success' | 'error' | 'warn'; title: string; detail: string | null };
  switch (note.kind) {
    case 'refreshed':
      body = { tone: 'success', title: 'Read from the server just now.', detail: null };
      break;
    case 'cancelled':
      body = { tone: 'success', title: 'The order is cancelled.', detail: null };
      break;
    case 'cancel-refused':
      body = {
        tone: 'warn',
        title: 'The server refused to cancel this order.',
        detail: note.message,
      };
      break;
    case 'refresh-failed':
    case 'cancel-failed': {
      const { title, detail } = describeError(note.error);
      body = {
        tone: 'error',
        title: `${note.kind === 'cancel-failed' ? 'The order could not be cancelled.' : 'The order could not be refreshed.'} ${title}`,
        detail,
      };
      break;
    }
  }
  return (
    <div
      className={`notice notice-${body.tone} order-note`}
      role={body.tone === 'success' ? 'status' : 'alert'}
    >
      <div>
        <p className="notice-title">{body.title}</p>
        {body.detail && <p>{body.detail}</p>}
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
        <X aria-hidden="true" size={16} />
      </button>
    </div>
  );
}

/**
 * The confirmation before a cancel. It stays mounted while the order changes under it (a cancel
 * done or refused moves the order out of NEW, and the button that opened it goes away).
 */
function CancelDialog({
  order,
  open,
  onClose,
}: {
  order: AppOrder;
  open: boolean;
  onClose(done: boolean): void;
}) {
  const busy = useOrderDetailStore((s) => s.busy === 'cancel');
  const cancel = useOrderDetailStore((s) => s.cancel);
  const confirm = async () => {
    await cancel();
    onClose(true);
  };
  return (
    <Dialog open={open} title="Cancel this order?" onClose={() => onClose(false)} alert>
      <div className="dialog-body">
        <p>
          Order <strong className="order-mono">{order.id}</strong> for {patientName(order)} (
          {order.lineItems.length} {order.lineItems.length === 1 ? 'product' : 'products'},{' '}
          {formatMoney(order.totalPrice)}) will be cancelled on the server. This cannot be undone: a
          new order would be needed.
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onClose(false)} data-autofocus>
          Keep the order
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => void confirm()}
          disabled={busy}
          aria-busy={busy}
        >
          {busy ? 'Cancelling…' : 'Cancel order'}
        </button>
      </div>
    </Dialog>
  );
}

/** The protocol the order was made from on this desk, when it was: a link to it. */
function MadeFrom({ orderId }: { orderId: string }) {
  const made = useMadeFrom(orderId);
  const protocol = made.data?.protocol;
  if (!protocol) return null;
  return (
    <div>
      <dt>Protocol</dt>
      <dd>
        {protocol.deleted ? (
          <span className="muted">Made from a protocol since deleted here</span>
        ) : (
          /* Out of the queue's nested routes (~): the protocol's editor. */
          <Link href={`~/protocols/${protocol.localId}`}>Open the protocol it was made from</Link>
        )}
      </dd>
    </div>
  );
}

function Facts({ order }: { order: AppOrder }) {
  const c = order.customer;
  const a = c.address;
  return (
    <div className="order-facts">
      <section className="order-section" aria-labelledby="order-customer-heading">
        <h3 id="order-customer-heading">Customer</h3>
        <dl className="facts-list">
          <div>
            <dt>Patient</dt>
            <dd>
              {/* Out of the queue's nested routes (~): the patient's own screen. */}
              <Link href={`~${patientHref(c.sourceId)}`}>{patientName(order)}</Link>
            </dd>
          </div>
          <div>
            <dt>Patient ID</dt>
            <dd className="order-mono">{c.sourceId}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{c.email ?? <span className="muted">None</span>}</dd>
          </div>
          <div>
            <dt>Phone</dt>
            <dd>{c.phone ?? <span className="muted">None</span>}</dd>
          </div>
          <MadeFrom orderId={order.id} />
        </dl>
      </section>
      <section className="order-section" aria-labelledby="order-shipping-heading">
        <h3 id="order-shipping-heading">Shipping</h3>
        <dl className="facts-list">
          <div>
            <dt>Address</dt>
            <dd>
              <address className="order-address">
                {a.line1}
                <br />
                {a.line2 && (
                  <>
                    {a.line2}
                    <br />
                  </>
                )}
                {a.city}, {a.state} {a.zipCode}
              </address>
            </dd>
          </div>
          <div>
            <dt>Shipping method</dt>
            <dd>{shippingMethodLabel(order.shippingMethod)}</dd>
          </div>
          <div>
            <dt>Days supply</dt>
            <dd>{order.daysSupply} days</dd>
          </div>
          <div>
            <dt>Order type</dt>
            <dd>{orderTypeLabel(order.orderType)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

function Order({ order }: { order: AppOrder }) {
  const busy = useOrderDetailStore((s) => s.busy);
  const note = useOrderDetailStore((s) => s.note);
  const refresh = useOrderDetailStore((s) => s.refresh);
  const ref = useRef<HTMLElement>(null);
  const refreshButton = useRef<HTMLButtonElement>(null);
  const [confirming, setConfirming] = useState(false);
  const noCancel = cancelBlockedReason(order);
  const closeConfirm = (done: boolean) => {
    setConfirming(false);
    // The Cancel button is gone once the order left NEW: the focus goes to Refresh, not the page.
    if (done)
      requestAnimationFrame(() => {
        if (!document.activeElement || document.activeElement === document.body)
          refreshButton.current?.focus();
      });
  };
  useEffect(() => {
    // In a narrow window the detail sits below the queue: bring it into view.
    if (window.matchMedia('(max-width: 960px)').matches) ref.current?.scrollIntoView();
  }, [order.id]);
  return (
    <article ref={ref} className="order-detail" aria-labelledby="order-heading">
      <header className="order-detail-head">
        <div>
          <h2 id="order-heading">
            Order <span className="order-mono">{order.id}</span>
          </h2>
          <p className="order-detail-sub">
            <OrderStatusBadge status={order.status} />
            <span className="muted">
              {patientName(order)} · created{' '}
              <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
              {order.updatedAt !== order.createdAt && (
                <>
                  {' '}
                  · updated{' '}
                  <time dateTime={order.updatedAt}>{formatDateTime(order.updatedAt)}</time>
                </>
              )}
            </span>
          </p>
        </div>
        <div className="order-actions">
          <Link href={orderScheduleHref(order.id)} className="button">
            <CalendarDays aria-hidden="true" size={16} />
            Dosing schedule
          </Link>
          <button
            ref={refreshButton}
            type="button"
            className="button"
            onClick={() => void refresh()}
            disabled={busy !== null}
            aria-busy={busy === 'refresh'}
          >
            <RefreshCw aria-hidden="true" size={16} className={busy === 'refresh' ? 'spin' : ''} />
            {busy === 'refresh' ? 'Refreshing…' : 'Refresh'}
          </button>
          {order.status === 'NEW' && (
            <button
              type="button"
              className="button button-danger-outline"
              onClick={() => setConfirming(true)}
              disabled={busy !== null}
            >
              <Ban aria-hidden="true" size={16} />
              Cancel order…
            </button>
          )}
          {noCancel && <p className="muted order-cancel-note">{noCancel}</p>}
        </div>
      </header>
      <CancelDialog order={order} open={confirming} onClose={closeConfirm} />
      {note && <Note note={note} />}
      <section className="order-section" aria-labelledby="order-items-heading">
        <h3 id="order-items-heading">Line items</h3>
        <OrderLineItems order={order} />
        <OrderTotals order={order} />
      </section>
      <Facts order={order} />
      <div className="order-facts">
        <OrderTimeline order={order} />
        <OrderTracking order={order} />
      </div>
    </article>
  );
}

/** The order at #/orders/<id>: everything the mirror knows of it, kept up to date live. */
export function OrderDetail({ orderId }: { orderId: string }) {
  const show = useOrderDetailStore((s) => s.show);
  useEffect(() => show(orderId), [orderId, show]);
  const order = useOrder(orderId);

  if (order.status === 'loading') return <Loading label="Loading the order…" />;
  if (order.status === 'failed' && (!order.data || order.error.kind === 'not-found')) {
    return order.error.kind === 'not-found' ? (
      <Empty title={`Order ${orderId} is not among the orders on this computer.`}>
        <p className="muted">Sync now reads the recent orders from the server.</p>
      </Empty>
    ) : (
      <Failed what="The order could not be loaded." error={order.error} onRetry={order.refresh} />
    );
  }
  return <Order order={order.data!} />;
}
