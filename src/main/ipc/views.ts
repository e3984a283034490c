import {
  SUBJECT_LISTS,
  SUBJECTS_SHOWN,
  type ActivityEntryView,
  type ActivitySubjects,
} from '@shared/activity-views';
import { fieldName } from '@shared/field-names';
import type { ActivityEntry } from '../activity/activity-repo';
import type { LocalStore } from '../stores';
import { plainLineIssue, type RefusalContext } from './refusal-words';
import type { BatchItem } from '../bulk/batch-model';
import type { JobError } from '../jobs/job-model';
import type { BatchItemView } from '@shared/work-views';
import type { LocalProtocol, PendingChange, ProtocolSummary } from '../protocols/protocol-model';
import type { PendingChangeView, ProtocolSummaryView, ProtocolView } from '@shared/protocol-views';

/**
 * A job's error in words, for the badge next to the protocol and a batch's row: a refused product
 * in plain words, with no field name (the editor finds its line by the product's name).
 */
export function describeJobError(
  error: JobError | null,
  context: RefusalContext = {},
): string | null {
  if (!error) return null;
  switch (error.kind) {
    case 'detail':
      return `The server refused it (HTTP ${error.status}): ${error.detail}`;
    case 'validation':
      return `The server refused it: ${error.issues
        .map((i) => plainLineIssue(i, context) ?? `${fieldName(i.loc)}: ${i.msg ?? i.type}`)
        .join('; ')}`;
    case 'conflict':
      return {
        'edited-on-server': 'Changed on the server meanwhile: choose which version to keep.',
        'deleted-on-server': 'Deleted on the server meanwhile: choose whether to keep yours.',
        'deleted-locally-edited-on-server':
          'Deleted here but changed on the server meanwhile: choose which to keep.',
      }[error.conflict];
    case 'transport':
    case 'local':
      return error.message;
    case 'duplicate':
      return error.orders.some((o) => o.orderId === null)
        ? 'Held back, not sent: an order for this patient with the same content is being sent from this desk.'
        : 'Held back, not sent: this patient already has an order with the same content within its supply.';
  }
}

const changeView = (
  change: PendingChange | null,
  context: RefusalContext,
): PendingChangeView | null =>
  change && {
    op: change.op,
    state: change.state,
    attempts: change.attempts,
    message: describeJobError(change.error, context),
  };

/** The local catalog, as a refusal's wording names products. */
export const catalogNames =
  (store: Pick<LocalStore, 'products'>): RefusalContext['product'] =>
  (id) =>
    store.products.get(id);

export const toSummaryView = (
  p: ProtocolSummary,
  product?: RefusalContext['product'],
): ProtocolSummaryView => ({
  localId: p.localId,
  serverId: p.serverId,
  customerName: p.customerName,
  sourceId: p.sourceId,
  email: p.email,
  syncState: p.syncState,
  deleted: p.deleted,
  localUpdatedAt: p.localUpdatedAt,
  change: changeView(p.change, product ? { product } : {}),
});

export const toProtocolView = (
  p: LocalProtocol,
  product?: RefusalContext['product'],
): ProtocolView => ({
  ...toSummaryView(p, product),
  change: changeView(p.change, {
    lineProducts: p.draft.lineItems.map((li) => li.productId),
    ...(product ? { product } : {}),
  }),
  draft: p.draft,
  server: p.server,
  conflict: p.conflict && { kind: p.conflict.kind, detectedAt: p.conflict.detectedAt },
});

/** A batch item as the batch view shows it. */
export const toBatchItemView = (
  item: BatchItem,
  product?: RefusalContext['product'],
): BatchItemView => ({
  seq: item.seq,
  protocolLocalId: item.protocolLocalId,
  customerName: `${item.request.customer.firstName} ${item.request.customer.lastName}`,
  sourceId: item.request.customer.sourceId,
  state: item.state,
  orderId: item.orderId,
  orderStatus: item.orderStatus,
  attempts: item.attempts,
  message: describeJobError(item.error, {
    lineProducts: item.request.lineItems.map((li) => li.productId),
    ...(product ? { product } : {}),
  }),
  held: item.error?.kind === 'duplicate' ? item.error.orders : [],
  possibleDuplicates: item.possibleDuplicates,
});

/** An activity entry as the screen shows it: at most SUBJECTS_SHOWN ids of each list. */
export function toActivityView(entry: ActivityEntry): ActivityEntryView {
  const subjects: ActivitySubjects = { ...entry.subjects };
  const more: ActivityEntryView['more'] = {};
  for (const list of SUBJECT_LISTS) {
    const ids = entry.subjects[list];
    if (!ids || ids.length <= SUBJECTS_SHOWN) continue;
    subjects[list] = ids.slice(0, SUBJECTS_SHOWN);
    more[list] = ids.length - SUBJECTS_SHOWN;
  }
  return {
    seq: entry.seq,
    atLocal: entry.atLocal,
    atServer: entry.atServer,
    deskId: entry.deskId,
    deskName: entry.deskName,
    osUser: entry.osUser,
    staff: entry.staff,
    action: entry.action,
    subjects,
    more,
    detail: entry.detail,
  };
}
