import type { AppOrder } from '@shared/api';
import { call, errorMessage } from '@renderer/lib/ipc';
import { reportCancelHere } from '@renderer/stores/notifier';
import { cancelBlockedReason, patientName } from '@renderer/lib/order-format';

/** What became of one selected order in a bulk cancel (docs/decisions.md, "Bulk cancel"). */
export interface BulkCancelLine {
  orderId: string;
  patient: string;
  outcome: 'cancelled' | 'left' | 'refused' | 'failed';
  /** Why it was not cancelled (the same words as the order's detail); null once cancelled. */
  reason: string | null;
}

/** The selection as the local mirror has it now: what a bulk cancel would try, what it leaves. */
export interface BulkCancelPlan {
  toCancel: AppOrder[];
  left: BulkCancelLine[];
}

/** Reads the selected orders from the mirror and splits them: New ones are tried, others left. */
export async function planBulkCancel(orderIds: readonly string[]): Promise<BulkCancelPlan> {
  const toCancel: AppOrder[] = [];
  const left: BulkCancelLine[] = [];
  for (const orderId of orderIds) {
    const read = await call('orders.get', { orderId });
    if (!read.ok) {
      left.push({ orderId, patient: '', outcome: 'left', reason: errorMessage(read.error) });
      continue;
    }
    const reason = cancelBlockedReason(read.value);
    if (reason === null) toCancel.push(read.value);
    else left.push({ orderId, patient: patientName(read.value), outcome: 'left', reason });
  }
  return { toCancel, left };
}

/**
 * Cancels the plan's orders one after another through orders.cancel (the single cancel, with the
 * API's rules: a refusal is an outcome with its reason, not an error), reporting each as it ends.
 * One failing (offline) does not stop the others: each is reported with its own reason. The
 * report is the news: no notification per cancelled order on top of it.
 */
export async function runBulkCancel(
  orders: readonly AppOrder[],
  onLine: (line: BulkCancelLine) => void,
): Promise<void> {
  for (const order of orders) {
    const base = { orderId: order.id, patient: patientName(order) };
    const undo = reportCancelHere(order.id);
    const result = await call('orders.cancel', { orderId: order.id });
    if (!result.ok || !result.value.ok) undo();
    if (!result.ok) onLine({ ...base, outcome: 'failed', reason: errorMessage(result.error) });
    else if (result.value.ok) onLine({ ...base, outcome: 'cancelled', reason: null });
    else onLine({ ...base, outcome: 'refused', reason: result.value.message });
  }
}
