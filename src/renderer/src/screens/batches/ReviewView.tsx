import { Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { Empty, Failed, Loading } from '../../components/States';
import { formatMoney, plural } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { useBatchDraftStore } from '../../stores/batch-draft-store';
import { useBatchesStore } from '../../stores/batches-store';
import { ConfirmSubmit } from './ConfirmSubmit';
import { LeftOutList } from './LeftOutList';
import { ReviewList } from './ReviewList';

const FROM_LABELS: Record<string, string> = {
  '/refills': 'Back to refills due',
  '/protocols': 'Back to the protocols',
};

/** The protocols chosen for a batch, as the batch would be: estimates, warnings, who is left out. */
export function ReviewView() {
  const ids = useBatchDraftStore((s) => s.protocolLocalIds);
  const from = useBatchDraftStore((s) => s.from);
  const review = useBatchesStore((s) => s.review);
  const loadReview = useBatchesStore((s) => s.loadReview);
  const submit = useBatchesStore((s) => s.submit);
  const submitting = useBatchesStore((s) => s.submitting);
  const submitError = useBatchesStore((s) => s.submitError);
  const connection = useAppStore((s) => s.connection);
  const [confirming, setConfirming] = useState(false);
  const [, navigate] = useLocation();
  const back = FROM_LABELS[from] ?? 'Back';

  useEffect(() => {
    if (ids.length > 0) void loadReview(ids);
  }, [ids, loadReview]);

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

  // The store keeps its own copy of the ids it reviewed: the same ids, not the same array.
  const current = review && sameIds(review.protocolLocalIds, ids) ? review : null;
  const value = current?.status === 'ready' ? current.value : null;
  const included = value?.items.filter((i) => i.problems.length === 0) ?? [];
  const leftOut = value?.items.filter((i) => i.problems.length > 0) ?? [];
  const warned = included.filter((i) => i.warnings.length > 0).length;

  const send = async () => {
    const batchId = await submit(included.map((i) => i.localId));
    setConfirming(false);
    if (!batchId) {
      void loadReview(ids);
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

      {!current || current.status === 'loading' ? (
        <Loading label={`Checking ${plural(ids.length, 'protocol')}…`} />
      ) : current.status === 'failed' && current.error ? (
        <Failed
          what="The batch could not be reviewed."
          error={current.error}
          onRetry={() => void loadReview(ids)}
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
                <dt>Left out</dt>
                <dd data-testid="review-left-out">{leftOut.length}</dd>
              </div>
              <div>
                <dt>With warnings</dt>
                <dd>{warned}</dd>
              </div>
              <div>
                <dt>{value.exact ? 'Total' : 'Estimated total'}</dt>
                <dd data-testid="review-total">
                  {value.estimatedTotal === null ? 'Unknown' : formatMoney(value.estimatedTotal)}
                </dd>
              </div>
            </dl>
            {value.totalUnknown && (
              <p className="notice notice-warn review-total-unknown" role="status">
                {value.totalUnknown}
              </p>
            )}
            <p className="muted review-note">
              {value.exact
                ? 'Priced as the server prices orders. '
                : 'An estimate from the catalog on this computer: the server prices each order when it is created. '}
              {leftOut.length > 0 &&
                `${plural(leftOut.length, 'protocol')} cannot be an order and ${leftOut.length === 1 ? 'is' : 'are'} left out.`}
            </p>
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

          {leftOut.length > 0 && <LeftOutList items={leftOut} />}

          {included.length > 0 ? (
            <ReviewList items={included} exact={value.exact} />
          ) : (
            <Empty title="None of the chosen protocols can be an order yet. Fix them in the editor first." />
          )}

          <ConfirmSubmit
            open={confirming}
            count={included.length}
            total={value.estimatedTotal}
            totalUnknown={value.totalUnknown}
            exact={value.exact}
            leftOut={leftOut.length}
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

const sameIds = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);
