import { AlertTriangle, ArrowLeft, CalendarClock } from 'lucide-react';
import { useCallback } from 'react';
import { Link } from 'wouter';
import type { PatientSupplyView } from '@shared/patient-views';
import { Failed, Loading } from '@renderer/components/States';
import { formatDate } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import { useAppStore } from '@renderer/stores/app-store';
import { toast } from '@renderer/stores/toast-store';
import '@renderer/styles/patients.css';
import { outcomeText } from '@renderer/components/batch-labels';
import { ConfirmOneOrder } from '@renderer/components/ConfirmSubmit';
import { refusalReasons } from '@renderer/lib/server-issues';
import { OrderProgress } from '@renderer/components/OrderProgress';
import { daysLeftText } from '@renderer/lib/refills-format';
import { PatientOrders } from './PatientOrders';
import { PatientProtocols } from './PatientProtocols';
import { usePatient } from './use-patients';
import { useReorder } from './use-reorder';

/** What is due: when the last order not cancelled runs out, or that nothing supplies the patient. */
function Supply({ supply }: { supply: PatientSupplyView | null }) {
  if (!supply) {
    return (
      <p className="patient-supply muted" data-testid="patient-supply">
        No order supplies this patient now: nothing says when they are due.
      </p>
    );
  }
  const overdue = supply.daysLeft < 0;
  return (
    <p
      className={`patient-supply${overdue ? ' patient-supply-overdue' : ''}`}
      data-testid="patient-supply"
    >
      {overdue ? (
        <AlertTriangle aria-hidden="true" size={16} />
      ) : (
        <CalendarClock aria-hidden="true" size={16} />
      )}
      <span>
        {overdue ? 'Overdue: ' : 'Due: '}
        the supply of order{' '}
        <Link href={`/orders/${encodeURIComponent(supply.lastOrderId)}`} className="code">
          {supply.lastOrderId}
        </Link>{' '}
        ({supply.daysSupply} days, ordered {formatDate(supply.lastOrderedAt)}) runs out on{' '}
        <strong>{formatDate(supply.runsOutAt)}</strong>: {daysLeftText(supply.daysLeft)}
        {supply.daysLeft > 0 ? ' left' : ''}.
      </span>
    </p>
  );
}

/** The route's Patient ID, as typed when it is not a valid escape (the call then says not found). */
function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * #/patients/:sourceId: one patient whole: their protocols, every order with its status,
 * tracking and protocol, what is due, and Order (again) for any protocol or past order: one order,
 * reviewed and confirmed as Order now does in the editor (useReorder, ConfirmOneOrder).
 */
export default function PatientScreen({
  sourceId: raw,
  person: rawPerson,
}: {
  sourceId: string;
  person?: string;
}) {
  const sourceId = decoded(raw);
  const person = rawPerson === undefined ? undefined : decoded(rawPerson);
  const patient = usePatient(sourceId, person);
  const connection = useAppStore((s) => s.connection);
  const reorder = useReorder();
  const onRejected = useCallback(
    (message: string | null) =>
      toast.error('The server refused the order.', refusalReasons(message)),
    [],
  );
  const onCreated = useCallback(() => undefined, []);

  const view = patient.data;
  if (!view) {
    if (patient.status !== 'failed') return <Loading label="Loading the patient…" />;
    const { error } = patient;
    return (
      <div className="screen">
        <h1>Patient {sourceId}</h1>
        <Failed
          what="The patient could not be opened."
          error={error}
          // Not found is not worth another try: nothing here carries the Patient ID.
          {...(error.kind === 'not-found' ? {} : { onRetry: patient.refresh })}
        />
        <p>
          <Link href="/patients">All patients</Link>
        </p>
      </div>
    );
  }
  const { confirming } = reorder;
  return (
    <div className="screen patient-screen">
      <p className="patient-back">
        <Link href="/patients">
          <ArrowLeft aria-hidden="true" size={14} /> All patients
        </Link>
      </p>
      <div className="screen-head">
        <div>
          <h1>{view.name || 'Unnamed patient'}</h1>
          <p className="muted patient-id">
            Patient ID <span className="code">{view.sourceId}</span> ·{' '}
            {plural(view.protocols.length, 'protocol')} ·{' '}
            <span data-testid="patient-outcome">{outcomeText(view.outcome)}</span>
          </p>
        </div>
      </div>
      {view.otherNames.length > 0 && (
        <p className="notice notice-warn" role="status">
          <AlertTriangle aria-hidden="true" size={16} /> Patient ID{' '}
          <span className="code">{view.sourceId}</span> is also used here for{' '}
          {view.otherNames.join(' and ')}: only {view.name}’s protocols and orders are shown.{' '}
          <Link href="/patient-ids">Review the shared IDs</Link>
        </p>
      )}
      <Supply supply={view.supply} />
      {reorder.batchId && (
        <OrderProgress batchId={reorder.batchId} onRejected={onRejected} onCreated={onCreated} />
      )}

      <section className="card patient-section" aria-labelledby="patient-protocols-heading">
        <h2 id="patient-protocols-heading">
          Protocols <span className="section-count">{view.protocols.length}</span>
        </h2>
        <PatientProtocols
          protocols={view.protocols}
          ordered={view.orders.length > 0}
          reviewingId={reorder.reviewingId}
          onOrder={(protocolLocalId) => void reorder.ask({ from: 'protocol', protocolLocalId })}
        />
      </section>

      <section className="card patient-section" aria-labelledby="patient-orders-heading">
        <h2 id="patient-orders-heading">
          Orders <span className="section-count">{view.orders.length}</span>
        </h2>
        <PatientOrders
          orders={view.orders}
          protocols={view.protocols}
          reviewingId={reorder.reviewingId}
          onReorder={(orderId) => void reorder.ask({ from: 'order', orderId })}
        />
      </section>

      {confirming && (
        <ConfirmOneOrder
          review={confirming.review}
          open={confirming.open}
          connection={connection}
          busy={reorder.sending}
          onConfirm={() => void reorder.confirm()}
          onCancel={reorder.close}
        />
      )}
    </div>
  );
}
