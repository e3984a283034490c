import { CloudOff, GitCompare, KeyRound, RefreshCw, Unplug, Wifi } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { DeskPicker } from './DeskPicker';
import { Dialog } from './Dialog';
import { NotificationHistory } from './NotificationHistory';
import { PracticeMarker } from './PracticeMarker';
import { usePractice } from '../lib/practice';
import { formatMoment } from '../lib/dates';
import { KIND_LABELS, formatCount, plural } from '../lib/format';
import { OFFLINE_TEXT, unsyncedTotal, useAppStore, type OfflineReason } from '../stores/app-store';

type Sync = ReturnType<typeof useAppStore.getState>['sync'];

function syncText(sync: Sync, reason: OfflineReason | null): string {
  switch (sync.phase) {
    case 'pulling':
      return 'Fetching changes…';
    case 'pushing':
      return 'Sending changes…';
    case 'offline':
      return reason === 'credentials-rejected'
        ? 'Nothing is sent'
        : reason === 'not-api'
          ? 'Waiting for the network to reach the server'
          : 'Waiting for the network';
    case 'error':
      return `Sync failed${sync.error ? `: ${sync.error}` : ''}`;
    default: {
      const synced = sync.lastSyncedAt
        ? `Synced ${formatMoment(sync.lastSyncedAt)}`
        : 'Not synced yet';
      return sync.skipped.length > 0
        ? `${synced}, ${plural(sync.skipped.length, 'item')} left out`
        : synced;
    }
  }
}

/**
 * The sync state on one line: a long error is cut with an ellipsis (the whole text stays in the
 * status for screen readers and in the tooltip) and "Details" shows all of it in a dialog, as it
 * shows each item the server sent that could not be read and was left out.
 */
function SyncStatus() {
  const sync = useAppStore((s) => s.sync);
  const reason = useAppStore((s) => s.offlineReason);
  const [open, setOpen] = useState(false);
  const text = syncText(sync, reason);
  const failed = sync.phase === 'error' && sync.error !== null;
  const leftOut = sync.phase === 'idle' && sync.skipped.length > 0;
  return (
    <>
      <span className="sync-status muted" role="status" title={text} data-testid="sync-status">
        {text}
      </span>
      {(failed || leftOut) && (
        <button
          type="button"
          className="button button-small"
          onClick={() => setOpen(true)}
          aria-label={failed ? 'Details of the sync error' : 'Details of the items left out'}
        >
          Details
        </button>
      )}
      <Dialog
        open={open && (failed || leftOut)}
        title={failed ? 'The sync failed' : 'Items the server sent that could not be read'}
        onClose={() => setOpen(false)}
      >
        {failed ? (
          <>
            <p className="dialog-body sync-error-text">{sync.error}</p>
            <p className="muted">
              Local changes are kept and sent on the next sync. Sync now tries again.
            </p>
          </>
        ) : (
          <>
            <ul className="dialog-body sync-error-text">
              {sync.skipped.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
            <p className="muted">
              Everything else was synced. These items stay as they were here and are read again at
              the next sync.
            </p>
          </>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}

/**
 * Whether the app is sending, and if not, why: "Online"; "Offline" (no network, or the network
 * is not reaching the server: something else answers, such as a Wi-Fi sign-in page); or
 * "Credentials rejected" with the way to fix it (enter the new client secret in Connection). The
 * reason in words is the pill's tooltip, and is announced (a status, out of sight).
 */
function ConnectivityStatus() {
  const online = useAppStore((s) => s.online);
  const reason = useAppStore((s) => (s.online ? null : (s.offlineReason ?? 'network')));
  const said = (
    <span className="visually-hidden" role="status">
      {reason ? OFFLINE_TEXT[reason] : ''}
    </span>
  );
  if (online || reason === null) {
    return (
      <>
        <span className="pill pill-online" data-testid="connectivity">
          <Wifi aria-hidden="true" size={16} />
          Online
        </span>
        {said}
      </>
    );
  }
  if (reason === 'credentials-rejected' || reason === 'credentials-missing') {
    return (
      <>
        <span className="pill pill-offline" data-testid="connectivity" title={OFFLINE_TEXT[reason]}>
          <KeyRound aria-hidden="true" size={16} />
          {reason === 'credentials-rejected' ? 'Credentials rejected' : 'Client secret missing'}
        </span>
        <Link href="/connect" className="button button-small">
          Enter
          <Long>{reason === 'credentials-rejected' ? ' the new' : ' the'}</Long> secret
        </Link>
        {said}
      </>
    );
  }
  return (
    <>
      <span className="pill pill-offline" data-testid="connectivity" title={OFFLINE_TEXT[reason]}>
        <CloudOff aria-hidden="true" size={16} />
        Offline
      </span>
      {said}
    </>
  );
}

/**
 * Words a pill or button drops in a small window (styles/layout.css), so that the header's one row
 * holds them all: still read by screen readers, and in the element's text.
 */
const Long = ({ children }: { children: ReactNode }) => (
  <span className="header-long">{children}</span>
);

/** The browser host stopped: nothing on the page is true any longer until it is back. */
const HOST_STOPPED_TEXT =
  'Order Desk has stopped: this page cannot reach it, so nothing is saved or sent from here. Start it again (npm run browser); the page reconnects by itself and shows what changed.';

function HostStopped() {
  return (
    <>
      <span className="pill pill-offline" data-testid="connectivity" title={HOST_STOPPED_TEXT}>
        <Unplug aria-hidden="true" size={16} />
        Order Desk not running
      </span>
      <span className="visually-hidden" role="status">
        {HOST_STOPPED_TEXT}
      </span>
    </>
  );
}

/** The active connection, who is at the desk, online state, unsynced changes and the sync button. */
export function Header() {
  const hostUp = useAppStore((s) => s.hostUp);
  const connection = useAppStore((s) => s.connection);
  const phase = useAppStore((s) => s.sync.phase);
  const syncNow = useAppStore((s) => s.syncNow);
  const busy = phase === 'pulling' || phase === 'pushing';
  const practice = usePractice();

  return (
    <header className="header">
      <div className="header-connection">
        {connection ? (
          <>
            <span className="header-label">{connection.label}</span>
            {(connection.kind === 'production' ||
              connection.label !== KIND_LABELS[connection.kind]) && (
              <span className={`kind kind-${connection.kind}`}>{KIND_LABELS[connection.kind]}</span>
            )}
            {practice.enabled && (
              <PracticeMarker fulfillment={practice.fulfillment} onChange={practice.refresh} />
            )}
          </>
        ) : (
          <span className="header-label">Not connected</span>
        )}
        <DeskPicker />
      </div>
      <div className="header-status">
        {hostUp ? <HeaderStatus /> : <HostStopped />}
        <NotificationHistory />
        <button
          type="button"
          className="button"
          onClick={() => void syncNow()}
          disabled={busy || !connection || !hostUp}
          aria-busy={busy}
        >
          <RefreshCw aria-hidden="true" size={16} className={busy ? 'spin' : undefined} />
          Sync now
        </button>
      </div>
    </header>
  );
}

/** Online or why not, what waits to be sent, conflicts, and the last sync. */
function HeaderStatus() {
  const held = useAppStore((s) => s.offlineReason?.startsWith('credentials-') ?? false);
  const outbox = useAppStore((s) => s.outbox);
  const unsynced = unsyncedTotal(outbox);
  const breakdown = `${outbox.pending} waiting to be sent, ${outbox.inDoubt} being checked with the server, ${plural(outbox.conflicts, 'conflict')} to resolve`;
  return (
    <>
      <ConnectivityStatus />
      <span
        className={`pill ${unsynced > 0 ? 'pill-warn' : ''}`}
        title={`Local changes not yet confirmed by the server: ${breakdown}`}
        data-testid="unsynced-count"
      >
        {unsynced > 0 ? (
          <>
            {formatCount(unsynced)} unsynced<Long> {unsynced === 1 ? 'change' : 'changes'}</Long>
          </>
        ) : (
          <>
            All<Long> changes</Long> synced
          </>
        )}
        <span className="visually-hidden"> ({breakdown})</span>
      </span>
      {outbox.conflicts > 0 && (
        <Link href="/conflicts" className="pill pill-warn pill-link">
          <GitCompare aria-hidden="true" size={16} />
          {plural(outbox.conflicts, 'conflict')}
          <Long> to resolve</Long>
        </Link>
      )}
      {/* Held, nothing syncs: the pill and its way out say it all, in the room there is. */}
      {!held && <SyncStatus />}
    </>
  );
}
