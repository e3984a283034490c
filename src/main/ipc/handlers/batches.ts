import type { Batch } from '@main/bulk/batch-model';
import { reviewBatch } from '@main/bulk/batch-review';
import {
  BatchRejectedError,
  RetryRefusedError,
  describeProblem,
  problemPath,
} from '@main/orders/order-requests';
import { IpcFailure } from '../errors';
import { catalogNames, toBatchItemView } from '../views';
import {
  pricingTerms,
  sessionWrapper,
  type AreaHandlers,
  type IpcHandlerDeps,
  type Session,
} from './context';

/** batches.*: review, submit, the list and items, pause, continue, retry an item. */
export function batchesHandlers(deps: IpcHandlerDeps): AreaHandlers<'batches'> {
  const { core } = deps;
  const withSession = sessionWrapper(core);

  /** A batch of the local store, or a not-found failure. */
  const batch = (batchId: string) => {
    const b = core.store.batches.get(batchId);
    if (!b) throw new IpcFailure('not-found', 'This batch does not exist here.');
    return b;
  };

  /** A batch as the batches list shows it. */
  const batchView = (
    { id, createdAt, finishedAt, concurrency, name, total }: Batch,
    s: Session,
  ) => {
    const only = total === 1 ? core.store.batches.item(id, 0)?.request.customer : undefined;
    return {
      id,
      createdAt,
      finishedAt,
      concurrency,
      name,
      ordered: core.store.batches.outcome(id),
      single: only
        ? { customerName: `${only.firstName} ${only.lastName}`, sourceId: only.sourceId }
        : null,
      progress: s.bulk.progress(id),
    };
  };

  return {
    'batches.review': withSession(async ({ protocolLocalIds, refillOf }, s) => {
      await pricingTerms(deps);
      return reviewBatch(core.store, protocolLocalIds, {
        embedded: s.connection.kind === 'embedded',
        duplicates: s.duplicates,
        ...(refillOf ? { refillOf } : {}),
      });
    }),
    'batches.submit': withSession(
      async ({ protocolLocalIds, concurrency, allowDuplicateOf, name }, s) => {
        try {
          return {
            batchId: s.bulk.submit(protocolLocalIds, {
              ...(concurrency ? { concurrency } : {}),
              ...(allowDuplicateOf ? { allowDuplicateOf } : {}),
              ...(name ? { name } : {}),
            }),
          };
        } catch (error) {
          if (!(error instanceof BatchRejectedError)) throw error;
          // Each protocol that cannot be an order, at its place in the argument.
          const fieldErrors = error.rejected.map((r) => ({
            path: ['protocolLocalIds', protocolLocalIds.indexOf(r.protocolLocalId)],
            message: `${r.label ?? 'Unknown protocol'}: ${r.problems.map(describeProblem).join('; ')}`,
          }));
          throw new IpcFailure(
            'validation',
            `${error.rejected.length} protocol(s) cannot be submitted; nothing was sent.`,
            fieldErrors,
          );
        }
      },
    ),
    'batches.list': withSession(async (_, s) =>
      core.store.batches.list().map((b) => batchView(b, s)),
    ),
    'batches.items': withSession(async ({ batchId }) => {
      batch(batchId);
      const names = catalogNames(core.store);
      return core.store.batches.items(batchId).map((item) => toBatchItemView(item, names));
    }),
    'batches.pause': withSession(async ({ batchId }, s) => {
      batch(batchId);
      s.bulk.pause(batchId);
      return batchView(batch(batchId), s);
    }),
    'batches.retryItem': withSession(async ({ batchId, seq, sendAnyway }, s) => {
      batch(batchId);
      try {
        s.bulk.retryItem(batchId, seq, { allowDuplicates: sendAnyway === true });
      } catch (error) {
        if (!(error instanceof RetryRefusedError)) throw error;
        const kind = {
          'no-item': 'not-found',
          'no-protocol': 'not-found',
          'not-rejected': 'conflict',
          'not-held': 'conflict',
          problems: 'validation',
        } as const;
        throw new IpcFailure(
          kind[error.reason],
          error.message,
          error.problems.map((p) => ({
            path: problemPath(p.path),
            message: p.message,
          })),
        );
      }
      return batchView(batch(batchId), s);
    }),
    'batches.continue': withSession(async ({ batchId }, s) => {
      batch(batchId);
      s.bulk.continue(batchId);
      return batchView(batch(batchId), s);
    }),
  };
}
