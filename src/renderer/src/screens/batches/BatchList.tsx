import { Empty, Failed, Loading } from '@renderer/components/States';
import { sumOutcomes } from '@shared/order-outcome';
import { formatCount, formatMoney, plural } from '@renderer/lib/format';
import { useAppStore } from '@renderer/stores/app-store';
import { useBatchList } from './use-batches';
import {
  batchStarted,
  batchStateLabel,
  batchStateTone,
  batchTitle,
  outcomeText,
} from '@renderer/components/batch-labels';
import { ProgressBar } from './ProgressBar';

/** Every batch, past and unfinished, newest first; each opens its run view. */
export function BatchList() {
  const list = useBatchList();
  const batches = list.data ?? [];
  const offline = useAppStore((s) => (s.online ? null : (s.offlineReason ?? 'network')));

  const unfinished = batches.filter((b) => b.progress.state !== 'done').length;
  // Each batch's outcome as main counts it (current statuses), summed: the two cannot disagree.
  const totals = sumOutcomes(batches.map((b) => b.ordered));

  return (
    <div className="screen batch-screen">
      <div className="screen-head">
        <h1>Batches</h1>
        <a href="#/protocols" className="button">
          Choose protocols
        </a>
      </div>
      <p className="lead">
        Orders sent in bulk from saved protocols. A batch carries on by itself after a restart or a
        lost connection.
      </p>
      {list.status === 'failed' && !list.data ? (
        <Failed what="The batches could not be loaded." error={list.error} onRetry={list.refresh} />
      ) : list.status === 'loading' ? (
        <Loading label="Loading batches…" />
      ) : batches.length === 0 ? (
        <Empty title="No batches yet.">
          <p className="muted">
            Select protocols on the Protocols or Refills due screen and choose “Review batch” to
            send them as one batch.
          </p>
          <a href="#/protocols" className="button button-primary">
            Go to the protocols
          </a>
        </Empty>
      ) : (
        <section className="card batch-list-card" aria-labelledby="batches-heading">
          <h2 id="batches-heading" className="visually-hidden">
            All batches
          </h2>
          <p className="summary" role="status">
            {plural(batches.length, 'batch', 'batches')}
            {unfinished > 0 ? `, ${unfinished} unfinished` : ''}: {outcomeText(totals)}
          </p>
          <table className="table batch-table">
            <thead>
              <tr>
                <th scope="col">Batch</th>
                <th scope="col">Started</th>
                <th scope="col">Progress</th>
                <th scope="col" className="num">
                  Created
                </th>
                <th scope="col" className="num">
                  Cancelled
                </th>
                <th scope="col" className="num">
                  Refused
                </th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {batches.map((b) => (
                <tr key={b.id}>
                  <th scope="row">
                    <a href={`#/batches/${b.id}`} className="batch-link">
                      {batchTitle(b)}
                      <span className="visually-hidden">, started {batchStarted(b)}</span>
                    </a>
                  </th>
                  <td>{batchStarted(b)}</td>
                  <td>
                    <div className="batch-progress-cell">
                      <ProgressBar progress={b.progress} label={`Progress of ${batchTitle(b)}`} />
                      <span className="muted">
                        {b.progress.created + b.progress.rejected} / {b.progress.total}
                      </span>
                    </div>
                  </td>
                  <td className="num" data-testid="batch-created">
                    {b.ordered.standing.orders}
                  </td>
                  <td className="num" data-testid="batch-cancelled">
                    {b.ordered.cancelled.orders}
                    {b.ordered.cancelled.orders > 0 && (
                      <span className="muted batch-not-charged">
                        {' '}
                        ({formatMoney(b.ordered.cancelled.amount)} not charged)
                      </span>
                    )}
                  </td>
                  <td className="num" data-testid="batch-refused">
                    {b.ordered.refused}
                  </td>
                  <td className="num" data-testid="batch-total">
                    {formatMoney(b.ordered.standing.amount)}
                  </td>
                  <td>
                    <span
                      className={`batch-state batch-state-${batchStateTone(b.progress, offline)}`}
                    >
                      {batchStateLabel(b.progress, offline)}
                    </span>
                    {b.progress.inDoubt > 0 && (
                      <span className="muted"> · {b.progress.inDoubt} being checked</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  All batches
                </th>
                <td className="num" data-testid="batches-created">
                  {formatCount(totals.standing.orders)}
                </td>
                <td className="num" data-testid="batches-cancelled">
                  {formatCount(totals.cancelled.orders)}
                  {totals.cancelled.orders > 0 && (
                    <span className="muted batch-not-charged">
                      {' '}
                      ({formatMoney(totals.cancelled.amount)} not charged)
                    </span>
                  )}
                </td>
                <td className="num" data-testid="batches-refused">
                  {formatCount(totals.refused)}
                </td>
                <td className="num" data-testid="batches-total">
                  {formatMoney(totals.standing.amount)}
                </td>
                <td />
              </tr>
            </tfoot>
          </table>
        </section>
      )}
    </div>
  );
}
