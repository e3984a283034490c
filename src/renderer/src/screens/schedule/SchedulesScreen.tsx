import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Field } from '@renderer/components/Field';
import { Failed, Loading } from '@renderer/components/States';
import { dayFieldValue, isDayFieldValue, lastDayOfSupply } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import { useOrdersStore } from '@renderer/stores/orders-store';
import '@renderer/styles/schedule.css';
import { DosingSheet } from './DosingSheet';
import { PrintActions } from './PrintActions';
import { usePartnerBranding, useScheduleContent } from './use-schedule';

/** One selected order's sheet, on a printed page of its own. */
function OrderSheet({
  orderId,
  startDay,
  preparedOn,
  branding,
}: {
  orderId: string;
  startDay: string | null;
  preparedOn: Date;
  branding: ReturnType<typeof usePartnerBranding>['data'];
}) {
  const schedule = useScheduleContent({ kind: 'order', orderId });
  if (schedule.status === 'loading') return <Loading label={`Loading order ${orderId}…`} />;
  if (!schedule.content) {
    return (
      <Failed
        what={`The schedule of order ${orderId} could not be read.`}
        error={schedule.error!}
        onRetry={schedule.refresh}
      />
    );
  }
  const content = schedule.content;
  const lastDay =
    startDay && content.daysSupply !== null ? lastDayOfSupply(startDay, content.daysSupply) : null;
  return (
    <div className="schedule-page">
      <DosingSheet
        content={content}
        branding={branding}
        startDay={startDay}
        lastDay={lastDay}
        preparedOn={preparedOn}
      />
    </div>
  );
}

/**
 * #/orders/schedules: the dosing schedules of the orders selected in the queue, one after another
 * and one per printed page (schedule.css), with one start date and one Print for them all.
 */
export default function SchedulesScreen() {
  const selected = useOrdersStore((s) => s.selected);
  const orderIds = useMemo(() => [...selected], [selected]);
  const branding = usePartnerBranding();
  const [startDay, setStartDay] = useState(() => dayFieldValue());
  const preparedOn = useMemo(() => new Date(), []);
  const start = isDayFieldValue(startDay) ? startDay : null;
  const backLink = (
    <Link href="/orders" className="schedule-back">
      <ArrowLeft aria-hidden="true" size={16} /> Back to the orders
    </Link>
  );

  if (orderIds.length === 0) {
    return (
      <div className="screen schedule-screen">
        <div className="schedule-head">
          {backLink}
          <h1>Dosing schedules</h1>
        </div>
        <p>No order is selected. Select orders in the queue, then Print schedules.</p>
      </div>
    );
  }
  return (
    <div className="screen schedule-screen">
      <div className="schedule-head">
        {backLink}
        <h1>Dosing schedules for {plural(orderIds.length, 'order')}</h1>
      </div>
      <section className="card schedule-controls" aria-label="Print settings">
        <Field
          label="Start date"
          id="schedules-start"
          className="schedule-start"
          type="date"
          value={startDay}
          onChange={(event) => setStartDay(event.target.value)}
          hint={
            start
              ? 'Printed on every schedule; each is printed on a page of its own.'
              : 'Left blank on the schedules, to be written in by hand.'
          }
        />
        <PrintActions
          fileName={`dosing-schedules-${start ?? dayFieldValue()}.pdf`}
          subjects={{ orders: orderIds }}
        />
      </section>
      {orderIds.map((orderId) => (
        <OrderSheet
          key={orderId}
          orderId={orderId}
          startDay={start}
          preparedOn={preparedOn}
          branding={branding.data}
        />
      ))}
    </div>
  );
}
