import { useState } from 'react';
import type { AppOrder } from '@shared/api';
import { PRACTICE_TARGET_STATUSES, type PracticeTargetStatus } from '@shared/practice-views';
import { formatMoment } from '@renderer/lib/dates';
import { orderStatusLabel } from '@renderer/lib/order-filters';
import { patientName } from '@renderer/lib/order-format';
import { PracticeCard } from './PracticeCard';
import { PracticeSelect } from './PracticeSelect';
import { usePracticeCommand } from './use-practice-command';
import { advanceOrder, usePracticeOrders } from './use-practice-data';

/** The orders a move may start from: those not yet at the end of the chain. */
const movable = (order: AppOrder) => !['DELIVERED', 'CANCELLED'].includes(order.status);

const TARGETS = PRACTICE_TARGET_STATUSES.map((s) => ({ value: s, label: orderStatusLabel(s) }));

/** Moves one order of the sandbox along the fulfillment chain, up to any status ahead of it. */
export function MoveOrder({ disabled }: { disabled: boolean }) {
  const orders = usePracticeOrders();
  const choices = (orders.data?.orders ?? []).filter(movable);
  const [orderId, setOrderId] = useState('');
  const [to, setTo] = useState<PracticeTargetStatus>('SHIPPED');
  const command = usePracticeCommand<AppOrder>();
  const chosen = choices.some((o) => o.id === orderId) ? orderId : (choices[0]?.id ?? '');

  const submit = () => {
    if (!chosen) return;
    void command.run(() => advanceOrder(chosen, to));
  };

  const moved = command.done;
  const info = moved?.fulfillmentInfo;
  return (
    <PracticeCard
      id="practice-move"
      title="Move an order"
      hint="As the fulfillment partner would: each step on the way is announced to the app, and from Shipped on the order carries its carrier and tracking number."
      formLabel="Move an order"
      submitLabel="Move order"
      primary
      canSubmit={!disabled && chosen !== ''}
      command={command}
      result={
        moved && (
          <>
            {`Order ${moved.id} is now ${orderStatusLabel(moved.status)}`}
            {info?.trackingNumber
              ? `: shipped by ${info.carrier ?? 'the carrier'}, tracking number ${info.trackingNumber}.`
              : '.'}{' '}
            <span className="muted">{`Updated ${formatMoment(moved.updatedAt)}.`}</span>
          </>
        )
      }
      onSubmit={submit}
    >
      <div className="field-row">
        <PracticeSelect
          label="Order"
          value={chosen}
          empty="No order to move yet"
          options={choices.map((order) => ({
            value: order.id,
            label: `${patientName(order)}, ${order.id} (${orderStatusLabel(order.status)})`,
          }))}
          onChange={setOrderId}
        />
        <PracticeSelect label="Move to" value={to} options={TARGETS} onChange={setTo} />
      </div>
    </PracticeCard>
  );
}
