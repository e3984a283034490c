import { Send } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { centsToMoney, moneyToCents } from '@shared/money';
import { isHeldInReview, isSendableInReview, type ReviewItemView } from '@shared/work-views';
import { useLocation } from 'wouter';
import { Field } from '@renderer/components/Field';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { formatMoney, plural } from '@renderer/lib/format';
import { useAppStore } from '@renderer/stores/app-store';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import { useBatchesStore } from '@renderer/stores/batches-store';
import { ConfirmSubmit } from '@renderer/components/ConfirmSubmit';
import { DroppedList } from './DroppedList';
import { useBatchReview } from './use-batches';
import { HeldList } from './HeldList';
import { LeftOutList } from './LeftOutList';
import { ReviewList } from './ReviewList';

/** As long as a batch name may be (SubmitBatch's BatchName). */
const NAME_MAX = 80;

const FROM_LABELS: Record<string, string> = {
  '/refills': 'Back to refills due',
  '/protocols': 'Back to the protocols',
};

/** The protocols chosen for a batch, as the batch would be: estimates, warnings, who is left out. */
export function ReviewView() {
  const ids = useBatchDraftStore((s) => s.protocolLocalIds);
  const from = useBatchDraftStore((s) => s.from);
  const refillOf = useBatchDraftStore((s) => s.refillOf);
  const review = useBatchReview(ids, refillOf);
  const submit = useBatchesStore((s) => s.submit);
  const submitting = useBatchesStore((s) => s.submitting);
  const submitError = useBatchesStore((s) => s.submitError);
  const connection = useAppStore((s) => s.connection);
  const [confirming, setConfirming] = useState(false);
  /** Possible duplicates the user chose to order again all the same. */
  const [includedHeld, setIncludedHeld] = useState<ReadonlySet<string>>(new Set());
  /** Protocols the user dropped from this batch (they are kept, just not sent). */
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  const [lastDropped, setLastDropped] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [, navigate] = useLocation();
  const back = FROM_LABELS[from] ?? 'Back';

  // A new review is a new question: nothing held back is included by an earlier answer.
  const reviewed = review.data;
  useEffect(() => setIncludedHeld(new Set()), [reviewed]);
  // Another choice of protocols is another batch: nothing dropped, no name yet.
  useEffect(() => {
    setDropped(new Set());
    setLastDropped(null);
    setName('');
  }, [ids]);
  const split = useMemo(
    () => splitReview(reviewed?.items ?? [], includedHeld, dropped),
    [reviewed, includedHeld, dropped],
  );

  if (ids.length === 0) {
    return (
      <div className="screen batch-screen">
        <h1>Review the batch</h1>
        <Empty title="No protocols are chosen for a batch.">
          <p className="muted">
            Select protocols on the Protocols screen (or on Refills due), then choose “Review
            batch”.
          </p>
          <a href={`#${from}`} className="button button-primary">
            {from === '/refills' ? 'Go to refills due' : 'Go to the protocols'}
          </a>
        </Empty>
      </div>
    );
  }

  const value = review.data;
  const { included, leftOut, refused, held, stillHeld } = split;
  const warned = included.filter((i) => i.warnings.length > 0).length;
  const total = value ? totalOf(included, value.totalUnknown) : null;

  const toggleHeld = (localId: string, include: boolean) =>
    setIncludedHeld((was) => {
      const next = new Set(was);
      if (include) next.add(localId);
      else next.delete(localId);
      return next;
    });

  const drop = (localId: string) => {
    setDropped((was) => new Set(was).add(localId));
    setLastDropped(localId);
  };
  const putBack = (localId: string) => {
    setDropped((was) => {
      const next = new Set(was);
      next.delete(localId);
      return next;
    });
    setLastDropped(null);
    // Its Put back button is gone: the focus goes to the list it is back in.
    requestAnimationFrame(() => document.getElementById('included-heading')?.focus());
  };

  const send = async () => {
    // Sent beside: the supply a refill follows, and the repeats the user included.
    const chosenHeld = new Set(split.includedHeld.map((i) => i.localId));
    const allowDuplicateOf = Object.fromEntries(
      included.flatMap((i) => {
        const beside = [...(i.refill?.of ?? []), ...(chosenHeld.has(i.localId) ? i.repeats : [])];
        const ids = beside.flatMap((o) => (o.orderId === null ? [] : [o.orderId]));
        return ids.length > 0 ? [[i.localId, ids]] : [];
      }),
    );
    const batchId = await submit(
      included.map((i) => i.localId),
      allowDuplicateOf,
      name.trim(),
    );
    setConfirming(false);
    if (!batchId) {
      review.refresh();
      return;
    }
    useBatchDraftStore.getState().clear();
    navigate(`/${batchId}`);
  };

  return (
    <div className="screen batch-screen batch-review">
      <div className="screen-head">
        <div>
          <h1>Review the batch</h1>
          <p className="lead">
            Each protocol becomes one order. Check the batch before it is sent.
          </p>
        </div>
        <a href={`#${from}`} className="button">
          {back}
        </a>
      </div>

      {submitError && (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">Nothing was sent.</p>
          <p>{submitError}</p>
          <p>The review below is up to date; check it and submit again.</p>
        </div>
      )}

      {review.status === 'loading' ? (
        <Loading label={`Checking ${plural(ids.length, 'protocol')}…`} />
      ) : review.status === 'failed' ? (
        <Failed
          what="The batch could not be reviewed."
          error={review.error}
          onRetry={review.refresh}
        />
      ) : value ? (
        <>
          <section className="card review-summary" aria-labelledby="review-summary-heading">
            <h2 id="review-summary-heading" className="visually-hidden">
              Summary
            </h2>
            <dl className="review-figures">
              <div>
                <dt>Orders to send</dt>
                <dd data-testid="review-included">{included.length}</dd>
              </div>
              <div>
                <dt>Dropped</dt>
                <dd data-testid="review-dropped">{split.dropped.length}</dd>
              </div>
              <div>
                <dt>Left out</dt>
                <dd data-testid="review-left-out">{leftOut.length}</dd>
              </div>
              <div>
                <dt>Will be refused</dt>
                <dd data-testid="review-refused">{refused.length}</dd>
              </div>
              <div>
                <dt>Possible duplicates</dt>
                <dd data-testid="review-held">{stillHeld}</dd>
              </div>
              <div>
                <dt>With warnings</dt>
                <dd>{warned}</dd>
              </div>
              <div>
                <dt>{value.exact ? 'Total' : 'Estimated total'}</dt>
                <dd data-testid="review-total">
                  {total!.amount === null ? 'Unknown' : formatMoney(total!.amount)}
                </dd>
              </div>
            </dl>
            {total!.unknown && (
              <p className="notice notice-warn review-total-unknown" role="status">
                {total!.unknown}
              </p>
            )}
            {!value.duplicateCheck.checked && value.duplicateCheck.message && (
              <p className="notice notice-warn" role="status" data-testid="duplicate-check-unknown">
                {value.duplicateCheck.message}
              </p>
            )}
            <p className="muted review-note">
              {value.exact
                ? 'Priced as the server prices orders. '
                : 'An estimate from the catalog on this computer: the server prices each order when it is created. '}
              {leftOut.length > 0 &&
                `${plural(leftOut.length, 'protocol')} cannot be an order and ${leftOut.length === 1 ? 'is' : 'are'} left out. `}
              {refused.length > 0 &&
                `${plural(refused.length, 'protocol')} the server would refuse ${refused.length === 1 ? 'is' : 'are'} not sent.`}
            </p>
            <Field
              id="batch-name"
              className="review-name"
              label="Batch name (optional)"
              value={name}
              maxLength={NAME_MAX}
              placeholder="e.g. November refills"
              hint="Shown in the batches list. Without one, the batch is shown by its size and start date."
              onChange={(e) => setName(e.target.value)}
            />
            <div className="form-actions form-actions-start">
              <button
                type="button"
                className="button button-primary"
                disabled={included.length === 0 || submitting}
                onClick={() => setConfirming(true)}
              >
                <Send aria-hidden="true" size={16} />
                Submit {plural(included.length, 'order')}…
              </button>
            </div>
          </section>

          {held.length > 0 && (
            <HeldList
              items={held}
              all={value.items}
              included={includedHeld}
              onToggle={toggleHeld}
              onIncludeAll={() => setIncludedHeld(new Set(held.map((i) => i.localId)))}
            />
          )}

          {refused.length > 0 && <LeftOutList items={refused} kind="refused" />}

          {leftOut.length > 0 && <LeftOutList items={leftOut} kind="left-out" />}

          {included.length > 0 ? (
            <ReviewList items={included} exact={value.exact} onDrop={drop} />
          ) : (
            <Empty
              title={
                split.dropped.length > 0
                  ? 'Every protocol that could be sent is dropped: put one back to send this batch.'
                  : held.length > 0
                    ? 'Nothing is sent as the batch stands: include the possible duplicates that are meant, or fix the protocols left out.'
                    : 'None of the chosen protocols can be an order yet. Fix them in the editor first.'
              }
            />
          )}

          {split.dropped.length > 0 && (
            <DroppedList items={split.dropped} lastDropped={lastDropped} onPutBack={putBack} />
          )}

          <ConfirmSubmit
            open={confirming}
            count={included.length}
            total={total!.amount}
            totalUnknown={total!.unknown}
            exact={value.exact}
            leftOut={leftOut.length + refused.length + stillHeld}
            connection={connection}
            busy={submitting}
            onConfirm={() => void send()}
            onCancel={() => setConfirming(false)}
          />
        </>
      ) : null}
    </div>
  );
}

/**
 * The review's items by what becomes of them: sent (those that can be an order the server will
 * take and are not possible duplicates, plus the possible duplicates the user included), left out
 * for a problem, not sent because the server will refuse them, and held back as possible
 * duplicates.
 */
function splitReview(
  all: readonly ReviewItemView[],
  includedHeld: ReadonlySet<string>,
  droppedIds: ReadonlySet<string>,
) {
  const dropped = all.filter((i) => droppedIds.has(i.localId));
  const items = all.filter((i) => !droppedIds.has(i.localId));
  const leftOut = items.filter((i) => i.problems.length > 0);
  const refused = items.filter((i) => i.problems.length === 0 && i.refusals.length > 0);
  const held = items.filter((i) => isSendableInReview(i) && isHeldInReview(i));
  const chosen = held.filter((i) => includedHeld.has(i.localId));
  const included = items.filter(
    (i) => isSendableInReview(i) && (!isHeldInReview(i) || includedHeld.has(i.localId)),
  );
  return {
    included,
    leftOut,
    refused,
    held,
    dropped,
    includedHeld: chosen,
    stillHeld: held.length - chosen.length,
  };
}

/**
 * The total of the orders sent as the batch stands (dropped ones out, included possible
 * duplicates in), or why there is none: main's reason (no discount read, a product not in the
 * catalog), or the protocol with no estimate.
 */
function totalOf(
  included: readonly ReviewItemView[],
  unknown: string | null,
): { amount: string | null; unknown: string | null } {
  const missing = included.find((i) => i.estimatedTotal === null);
  if (missing)
    return {
      amount: null,
      unknown:
        unknown ?? `Total unknown: ${missing.customerName || missing.sourceId} has no estimate.`,
    };
  const cents = included.reduce((sum, i) => sum + moneyToCents(i.estimatedTotal!), 0);
  return { amount: centsToMoney(cents), unknown: null };
}
