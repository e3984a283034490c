import type { OrderOutcomeView } from '@shared/order-outcome';
import type { BatchView } from '@shared/work-views';
import { formatDateTime } from '@renderer/lib/dates';
import { formatMoney, plural } from '@renderer/lib/format';
import type { OfflineReason } from '@renderer/stores/app-store';
import type { BatchProgress, ItemState } from '@renderer/stores/batch-progress';

export const ITEM_STATE_LABELS: Record<ItemState, string> = {
  queued: 'Waiting',
  sending: 'Sending',
  in_doubt: 'Being checked',
  done: 'Created',
  rejected: 'Rejected',
};

/**
 * The batch's state in a word or two, with its outcome once it is finished. A running batch the
 * session is not sending for says why: its credentials were rejected or are missing from the
 * keychain, or it waits for the network.
 */
export function batchStateLabel(p: BatchProgress, offline: OfflineReason | null = null): string {
  if (p.state === 'paused') return 'Paused';
  if (p.state === 'running' && offline === 'credentials-rejected')
    return 'Held: credentials rejected';
  if (p.state === 'running' && offline === 'credentials-missing')
    return 'Held: client secret missing';
  if (p.state === 'running' && offline !== null) return 'Waiting for the network';
  if (p.state === 'running') return 'Running';
  const outcome = [
    ...(p.rejected - p.held > 0 ? [`${p.rejected - p.held} rejected`] : []),
    ...(p.held > 0 ? [`${p.held} held back`] : []),
  ];
  return outcome.length > 0 ? `Finished, ${outcome.join(', ')}` : 'Finished';
}

/** The class of the state's colour: a running batch the session holds is shown as held. */
export const batchStateTone = (p: BatchProgress, offline: OfflineReason | null = null): string =>
  p.state === 'running' && offline?.startsWith('credentials-') ? 'held' : p.state;

/**
 * The name the user gave the batch, or (none) its size; its start date is shown beside it. A
 * batch of one protocol is one order (Order now, Order again): named after its patient.
 */
export const batchTitle = (b: BatchView): string =>
  b.name ??
  (b.single
    ? `Order for ${b.single.customerName.trim() || b.single.sourceId}`
    : `Batch of ${plural(b.progress.total, 'protocol')}`);

/** What a batch is, beside its name: "Batch of 3 protocols", or "One order". */
export const batchKind = (b: BatchView): string =>
  b.single ? 'One order' : `Batch of ${plural(b.progress.total, 'protocol')}`;

/**
 * Orders and money as they stand: "2 orders created, $36.45"; with cancellations, "1 order
 * standing, $118.35 · 3 cancelled · $355.20 not charged"; then "2 refused by the server".
 */
export function outcomeText(o: OrderOutcomeView): string {
  const word = o.cancelled.orders > 0 ? 'standing' : 'created';
  const parts = [
    `${plural(o.standing.orders, 'order')} ${word}, ${formatMoney(o.standing.amount)}`,
  ];
  if (o.cancelled.orders > 0)
    parts.push(`${o.cancelled.orders} cancelled`, `${formatMoney(o.cancelled.amount)} not charged`);
  if (o.refused > 0) parts.push(`${o.refused} refused by the server`);
  return parts.join(' · ');
}

/** An order line's quantity in words: "2 pills a day", "1 per 30 days". */
export const lineQuantity = (line: { quantity: number; external: boolean }): string =>
  line.external
    ? `${line.quantity} per 30 days`
    : `${line.quantity} ${line.quantity === 1 ? 'pill' : 'pills'} a day`;

export const batchStarted = (b: BatchView): string => formatDateTime(b.createdAt);

/** "12 of 25 settled: 11 created, 1 rejected". */
export function progressText(p: BatchProgress): string {
  const parts = [`${p.created} created`];
  if (p.rejected - p.held > 0) parts.push(`${p.rejected - p.held} rejected`);
  if (p.held > 0) parts.push(`${p.held} held back`);
  if (p.inDoubt > 0) parts.push(`${p.inDoubt} being checked`);
  return `${p.created + p.rejected} of ${p.total} settled: ${parts.join(', ')}`;
}
