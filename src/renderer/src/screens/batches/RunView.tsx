import { Pause, Play } from 'lucide-react';
import { useState } from 'react';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { formatMoney } from '@renderer/lib/format';
import { OFFLINE_TEXT, useAppStore } from '@renderer/stores/app-store';
import { filterItems, type ItemFilter } from '@renderer/stores/batch-progress';
import { useBatchesStore } from '@renderer/stores/batches-store';
import {
  batchKind,
  batchStarted,
  batchStateLabel,
  batchStateTone,
  batchTitle,
  outcomeText,
} from '@renderer/components/batch-labels';
import { BatchCounts } from './BatchCounts';
import { useBatchItems, useBatchList } from './use-batches';
import { ItemFilterChoice } from './ItemFilterChoice';
import { ItemList } from './ItemList';
import { ProgressBar } from './ProgressBar';

function BackToList() {
  return (
    <a href="#/batches" className="button">
      All batches
    </a>
  );
}

/** A batch as it runs: counts, progress, pause and continue, and every item with its outcome. */
export function RunView({ batchId, valid }: { batchId: string; valid: boolean }) {
  const list = useBatchList();
  const itemsRead = useBatchItems(batchId);
  const toggling = useBatchesStore((s) => s.toggling);
  const pause = useBatchesStore((s) => s.pause);
  const resume = useBatchesStore((s) => s.resume);
  const [filter, setFilter] = useState<ItemFilter>('all');
  const offline = useAppStore((s) => (s.online ? null : (s.offlineReason ?? 'network')));

  const batch = list.data?.find((b) => b.id === batchId) ?? null;
  const missing =
    !valid ||
    (list.data !== null && batch === null) ||
    (itemsRead.status === 'failed' && itemsRead.error.kind === 'not-found');
  if (missing) {
    return (
      <div className="screen batch-screen">
        <h1>Batch not found</h1>
        <Empty title="There is no batch at this address on this computer.">
          <BackToList />
        </Empty>
      </div>
    );
  }
  if (list.status === 'loading' || itemsRead.status === 'loading') {
    return (
      <div className="screen batch-screen">
        <h1>Batch</h1>
        <Loading label="Loading the batch…" />
      </div>
    );
  }
  const error = (!batch && list.error) || (!itemsRead.data && itemsRead.error);
  if (!batch || !itemsRead.data) {
    return (
      <div className="screen batch-screen">
        <h1>Batch</h1>
        {error && (
          <Failed
            what="The batch could not be loaded."
            error={error}
            onRetry={() => {
              list.refresh();
              itemsRead.refresh();
            }}
          />
        )}
        <BackToList />
      </div>
    );
  }

  const items = itemsRead.data;
  const p = batch.progress;
  const shown = filterItems(items, filter);
  const attention = filterItems(items, 'attention').length;

  return (
    <div className="screen batch-screen batch-run">
      <div className="screen-head">
        <div>
          <h1>{batchTitle(batch)}</h1>
          <p className="lead">
            {batch.name === null ? 'Started' : `${batchKind(batch)}, started`} {batchStarted(batch)}{' '}
            · <span data-testid="batch-ordered">{outcomeText(batch.ordered)}</span>
          </p>
        </div>
        <div className="batch-actions">
          {p.state === 'running' && (
            <button
              type="button"
              className="button"
              onClick={() => void pause(batchId)}
              disabled={toggling}
              aria-busy={toggling}
            >
              <Pause aria-hidden="true" size={16} />
              Pause
            </button>
          )}
          {p.state === 'paused' && (
            <button
              type="button"
              className="button button-primary"
              onClick={() => void resume(batchId)}
              disabled={toggling}
              aria-busy={toggling}
            >
              <Play aria-hidden="true" size={16} />
              Continue
            </button>
          )}
          <BackToList />
        </div>
      </div>

      <section className="card batch-status" aria-labelledby="batch-status-heading">
        <div className="batch-status-head">
          <h2 id="batch-status-heading">Progress</h2>
          <p className={`batch-state batch-state-${batchStateTone(p, offline)}`} role="status">
            {batchStateLabel(p, offline)}
          </p>
        </div>
        <ProgressBar progress={p} label="Orders settled" />
        <BatchCounts progress={p} cancelled={batch.ordered.cancelled.orders} />
        {p.state !== 'done' && offline === 'credentials-missing' && (
          <div className="notice notice-error" data-testid="batch-held">
            <p>
              <strong>Client secret missing.</strong> The keychain does not give this connection’s
              client secret (it was removed, or the keychain is locked), so no order is sent:
              nothing is lost or marked failed. Unlock the keychain or enter the secret again, and
              the batch continues where it stopped.
            </p>
            <p>
              <a href="#/connect" className="button button-small">
                Enter the secret
              </a>
            </p>
          </div>
        )}
        {p.state !== 'done' && offline === 'credentials-rejected' && (
          <div className="notice notice-error" data-testid="batch-held">
            <p>
              <strong>Credentials rejected.</strong> The server refused this connection’s client
              secret, so no order is sent: nothing is lost or marked failed. Enter the new secret
              and the batch continues where it stopped.
            </p>
            <p>
              <a href="#/connect" className="button button-small">
                Enter the new secret
              </a>
            </p>
          </div>
        )}
        {p.state === 'running' && offline !== null && !offline.startsWith('credentials-') && (
          <p className="notice notice-info">{OFFLINE_TEXT[offline]}</p>
        )}
        {p.state === 'paused' && (
          <p className="notice notice-info">
            Paused: no more orders are sent until you continue. Orders already on their way finish.
          </p>
        )}
        {p.state === 'done' && p.rejected - p.held > 0 && (
          <p className="notice notice-warn">
            {p.rejected - p.held === 1 ? 'One order was' : `${p.rejected - p.held} orders were`}{' '}
            rejected by the server. Fix the protocol in the editor, then retry that order.
          </p>
        )}
        {batch.ordered.cancelled.orders > 0 && (
          <p className="notice notice-info" data-testid="batch-cancelled">
            {batch.ordered.cancelled.orders === 1
              ? 'One order was cancelled after it was created'
              : `${batch.ordered.cancelled.orders} orders were cancelled after they were created`}
            : {formatMoney(batch.ordered.cancelled.amount)} is not charged and is left out of the
            batch’s total.
          </p>
        )}
        {p.held > 0 && (
          <p className="notice notice-warn" data-testid="batch-held">
            {p.held === 1 ? 'One order was' : `${p.held} orders were`} held back, not sent: the
            patient already has an order with the same products and doses within its supply (made by
            another desk, or being sent). Send it anyway only if it is meant.
          </p>
        )}
        {p.possibleDuplicates > 0 && (
          <p className="notice notice-warn" role="status" data-testid="batch-possible-duplicates">
            {p.possibleDuplicates === 1
              ? 'One order may be a duplicate'
              : `${p.possibleDuplicates} orders may be duplicates`}
            : the same patient, products and doses were ordered twice around this batch (by another
            desk, or by a create whose answer came late). Check them below and cancel one of each
            pair while it is new.
          </p>
        )}
        {p.inDoubt > 0 && (
          <p className="notice notice-info">
            The server’s answer did not arrive for{' '}
            {p.inDoubt === 1 ? 'one order' : `${p.inDoubt} orders`}: Order Desk is checking with the
            server before sending anything again, so no order is made twice.
          </p>
        )}
      </section>

      <section className="card batch-items" aria-labelledby="batch-items-heading">
        <div className="batch-items-head">
          <h2 id="batch-items-heading">Orders</h2>
          <ItemFilterChoice
            value={filter}
            onChange={setFilter}
            counts={{ all: items.length, attention, created: filterItems(items, 'created').length }}
          />
        </div>
        {shown.length === 0 ? (
          <Empty
            title={
              filter === 'attention'
                ? 'Nothing needs a look: no order is rejected, held back, being checked or a possible duplicate.'
                : 'No order is created yet.'
            }
          />
        ) : (
          <ItemList batchId={batchId} items={shown} />
        )}
      </section>
    </div>
  );
}
