import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Field } from '@renderer/components/Field';
import { Failed, Loading } from '@renderer/components/States';
import { dayFieldValue, formatDate, isDayFieldValue, lastDayOfSupply } from '@renderer/lib/dates';
import { describeError } from '@renderer/lib/ipc';
import { orderIdOf } from '@renderer/lib/order-format';
import '@renderer/styles/schedule.css';
import { DosingSheet } from './DosingSheet';
import { PrintActions } from './PrintActions';
import { scheduleFileName } from './schedule-rows';
import { usePartnerBranding, useScheduleContent, type ScheduleSource } from './use-schedule';

const backTo = (source: ScheduleSource) =>
  source.kind === 'protocol'
    ? { href: `/protocols/${source.localId}`, label: 'Back to the protocol' }
    : { href: `/orders/${encodeURIComponent(source.orderId)}`, label: 'Back to the order' };

/**
 * #/protocols/:localId/schedule and #/orders/:orderId/schedule: the patient's dosing schedule,
 * as it prints, with the start date to print and the print and save actions. Only the sheet is
 * printed (schedule.css).
 */
export default function ScheduleScreen({ source }: { source: ScheduleSource }) {
  if (source.kind === 'order') {
    // The route's segment as it came: decoded here, as the order queue does.
    const orderId = orderIdOf(source.orderId);
    if (orderId === null) {
      return (
        <div className="screen">
          <h1>Dosing schedule</h1>
          <p>That address does not name an order.</p>
        </div>
      );
    }
    return <Schedule key={orderId} source={{ kind: 'order', orderId }} />;
  }
  return <Schedule key={source.localId} source={source} />;
}

function Schedule({ source }: { source: ScheduleSource }) {
  const schedule = useScheduleContent(source);
  const branding = usePartnerBranding();
  const [startDay, setStartDay] = useState(() => dayFieldValue());
  const preparedOn = useMemo(() => new Date(), []);
  const back = backTo(source);
  const backLink = (
    <Link href={back.href} className="schedule-back">
      <ArrowLeft aria-hidden="true" size={16} /> {back.label}
    </Link>
  );

  if (schedule.status === 'loading') return <Loading label="Loading the schedule…" />;
  if (schedule.status === 'failed' && !schedule.content) {
    return (
      <div className="screen">
        {backLink}
        <h1>Dosing schedule</h1>
        <Failed
          what={`The ${source.kind} could not be read.`}
          error={schedule.error}
          onRetry={schedule.refresh}
        />
      </div>
    );
  }
  const content = schedule.content!;
  const start = isDayFieldValue(startDay) ? startDay : null;
  const lastDay =
    start && content.daysSupply !== null ? lastDayOfSupply(start, content.daysSupply) : null;
  const brandingError = branding.status === 'failed' ? describeError(branding.error) : null;

  return (
    <div className="screen schedule-screen">
      <div className="schedule-head">
        {backLink}
        <h1>Dosing schedule for {content.patientName || 'the patient'}</h1>
      </div>
      <section className="card schedule-controls" aria-label="Print settings">
        <Field
          label="Start date"
          id="schedule-start"
          className="schedule-start"
          type="date"
          value={startDay}
          onChange={(event) => setStartDay(event.target.value)}
          hint={
            start
              ? lastDay
                ? `The supply lasts until ${formatDate(lastDay)}.`
                : 'Printed on the schedule.'
              : 'Left blank on the schedule, to be written in by hand.'
          }
        />
        <PrintActions
          fileName={scheduleFileName(content.patientName, start ?? dayFieldValue())}
          subjects={
            source.kind === 'protocol'
              ? { protocols: [source.localId] }
              : { orders: [source.orderId] }
          }
        />
      </section>
      {brandingError && (
        <p className="notice notice-warn" role="status">
          The clinic’s name, logo and phone could not be read, so the schedule prints without them.{' '}
          {brandingError.title}
        </p>
      )}
      {content.lines.length === 0 && (
        <p className="notice notice-warn" role="status">
          This {source.kind} has no products yet: the schedule has no rows.
        </p>
      )}
      <DosingSheet
        content={content}
        branding={branding.data}
        startDay={start}
        lastDay={lastDay}
        preparedOn={preparedOn}
      />
    </div>
  );
}
