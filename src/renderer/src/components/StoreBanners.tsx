import { DatabaseZap, HardDrive } from 'lucide-react';
import { useId } from 'react';
import type { StoreNotice } from '@shared/store-views';
import { formatMoment } from '../lib/dates';
import { formatCount, plural } from '../lib/format';
import { useAppStore } from '../stores/app-store';

const STORAGE_TITLES = {
  full: 'The disk is full',
  'read-only': 'Order Desk cannot write to its data folder',
  io: 'The disk reports errors',
} as const;

/**
 * What the user must know about the files Order Desk keeps on this computer, above every screen:
 * a disk that refuses writes (while it lasts) and each damaged database that was recovered
 * (until dismissed).
 */
export function StoreBanners() {
  const storage = useAppStore((s) => s.storage);
  const notices = useAppStore((s) => s.notices);
  if (!storage && notices.length === 0) return null;
  return (
    <div className="store-banners">
      {storage && (
        <div className="notice notice-error store-banner" role="alert">
          <p className="notice-title">
            <HardDrive aria-hidden="true" size={16} /> {STORAGE_TITLES[storage.fault]}
          </p>
          <p>{storage.message}</p>
        </div>
      )}
      {notices.map((notice) => (
        <RecoveredNotice key={notice.id} notice={notice} />
      ))}
    </div>
  );
}

function RecoveredNotice({ notice }: { notice: StoreNotice }) {
  const titleId = useId();
  const dismiss = useAppStore((s) => s.dismissNotice);
  const whose =
    notice.connectionLabel === null
      ? 'its list of connections and settings'
      : `the local database of “${notice.connectionLabel}”`;
  const { protocols, unsentChanges, unfinishedBatches, orders } = notice.recovered;
  return (
    <section className="notice notice-warn store-banner" aria-labelledby={titleId}>
      <h2 id={titleId} className="notice-title">
        <DatabaseZap aria-hidden="true" size={16} /> Order Desk found {whose} damaged
      </h2>
      {notice.cause === 'not-a-database' ? (
        <p>
          The file in its place was not an Order Desk database (found {formatMoment(notice.at)}; it
          may have been overwritten or replaced), so Order Desk started a new one. Nothing was
          deleted: the file is kept at
        </p>
      ) : (
        <p>
          It could not be read as it was (found {formatMoment(notice.at)}). Order Desk kept the
          damaged file as it found it, and copied everything it could still read into a new
          database. The damaged file is kept at
        </p>
      )}
      <p>
        <code className="store-path">{notice.keptAt}</code>
      </p>
      {notice.connectionLabel !== null && (
        <p>
          Recovered: {plural(protocols, 'protocol')}, {plural(unsentChanges, 'unsent change')}
          {unsentChanges > 0 && ' (checked with the server before anything is sent again)'},{' '}
          {plural(unfinishedBatches, 'unfinished batch', 'unfinished batches')} and{' '}
          {plural(orders, 'order')}.
        </p>
      )}
      {notice.unreadable > 0 ? (
        <p>
          {formatCount(notice.unreadable)} {notice.unreadable === 1 ? 'row' : 'rows'} could not be
          read. They are missing from the new database but still in the kept file, from which a
          technician may be able to recover more.
        </p>
      ) : (
        notice.cause === 'damaged' && <p>Every row could be read: nothing is missing.</p>
      )}
      <div className="store-banner-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => void dismiss(notice.id)}
          aria-label={`Dismiss the notice about ${whose}`}
        >
          Dismiss
        </button>
      </div>
    </section>
  );
}
