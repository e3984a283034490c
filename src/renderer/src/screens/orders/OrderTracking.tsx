import { ExternalLink } from 'lucide-react';
import { useState } from 'react';
import type { AppOrder, Checkpoint } from '@shared/api';
import type { IpcError } from '@shared/ipc';
import { errorMessage } from '@renderer/lib/ipc';
import { openExternal } from '@renderer/lib/open-external';
import { formatDateTime } from '@renderer/lib/dates';
import { trackingPage } from '@renderer/lib/order-format';

/** "InTransit", "OUT_FOR_DELIVERY" -> "In transit", "Out for delivery". */
function trackingWords(token: string): string {
  const words = token
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function Checkpoints({ checkpoints }: { checkpoints: Checkpoint[] }) {
  // Newest first: where the parcel is now comes first (the later of two at the same time, too).
  const sorted = checkpoints
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (b.c.checkpointTime ?? '').localeCompare(a.c.checkpointTime ?? '') || b.i - a.i)
    .map(({ c }) => c);
  return (
    <ol className="order-checkpoints" aria-label="Tracking checkpoints">
      {sorted.map((c, i) => (
        <li key={`${c.checkpointTime ?? ''}-${i}`} className="order-checkpoint">
          <p className="order-checkpoint-head">
            <span className="order-checkpoint-message">{c.message ?? 'Update'}</span>
            {c.tag && trackingWords(c.tag).toLowerCase() !== (c.message ?? '').toLowerCase() && (
              <span className="tag">{trackingWords(c.tag)}</span>
            )}
          </p>
          <p className="muted order-checkpoint-meta">
            {c.checkpointTime && (
              <time dateTime={c.checkpointTime}>{formatDateTime(c.checkpointTime)}</time>
            )}
            {c.checkpointTime && c.location && ' · '}
            {c.location}
          </p>
        </li>
      ))}
    </ol>
  );
}

/** Carrier, tracking number and status, the checkpoints, and the carrier's page. */
export function OrderTracking({ order }: { order: AppOrder }) {
  const info = order.fulfillmentInfo;
  const [openError, setOpenError] = useState<IpcError | null>(null);
  const url = trackingPage(info);
  const open = async () => {
    if (!url) return;
    setOpenError(null);
    const result = await openExternal(url);
    if (!result.ok) setOpenError(result.error);
  };
  return (
    <section className="order-section" aria-labelledby="order-tracking-heading">
      <h3 id="order-tracking-heading">Tracking</h3>
      {!info ? (
        <p className="muted">
          No tracking yet: the carrier&rsquo;s details appear once the order ships.
        </p>
      ) : (
        <>
          <dl className="facts-list">
            <div>
              <dt>Carrier</dt>
              <dd>{info.carrier ?? 'Not given yet'}</dd>
            </div>
            <div>
              <dt>Tracking number</dt>
              <dd className="order-mono">{info.trackingNumber ?? 'Not given yet'}</dd>
            </div>
            <div>
              <dt>Tracking status</dt>
              <dd>{info.trackingStatus ? trackingWords(info.trackingStatus) : 'Not given yet'}</dd>
            </div>
          </dl>
          {url && (
            <p>
              <button type="button" className="button" onClick={() => void open()}>
                <ExternalLink aria-hidden="true" size={16} />
                Open the tracking page
              </button>
            </p>
          )}
          {openError && (
            <p className="notice notice-error" role="alert">
              The tracking page could not be opened. {errorMessage(openError)}
            </p>
          )}
          {info.checkpoints && info.checkpoints.length > 0 ? (
            <Checkpoints checkpoints={info.checkpoints} />
          ) : (
            <p className="muted">
              No checkpoints here: the carrier&rsquo;s history is on the tracking page.
            </p>
          )}
        </>
      )}
    </section>
  );
}
