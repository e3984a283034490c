import { CloudOff, GitCompare, RefreshCw, Wifi } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Dialog } from './Dialog';
import { KIND_LABELS, formatTime, plural } from '../lib/format';
import { unsyncedTotal, useAppStore } from '../stores/app-store';

type Sync = ReturnType<typeof useAppStore.getState>['sync'];

function syncText(sync: Sync): string {
  switch (sync.phase) {
    case 'pulling':
      return 'Fetching changes…';
    case 'pushing':
      return 'Sending changes…';
    case 'offline':
      return 'Waiting for the network';
    case 'error':
      return `Sync failed${sync.error ? `: ${sync.error}` : ''}`;
    default: {
      const synced = sync.lastSyncedAt
        ? `Synced ${formatTime(sync.lastSyncedAt)}`
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
  const [open, setOpen] = useState(false);
  const text = syncText(sync);
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
      <Dialog open={open && failed} title="The sync failed" onClose={() => setOpen(false)}>
        <p className="dialog-body sync-error-text">{sync.error}</p>
        <p className="muted">
          Local changes are kept and sent on the next sync. Sync now tries again.
        </p>
        <div className="dialog-actions">
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Dialog>
      <Dialog
        open={open && leftOut}
        title="Items the server sent that could not be read"
        onClose={() => setOpen(false)}
      >
        <ul className="dialog-body sync-error-text">
          {sync.skipped.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
        <p className="muted">
          Everything else was synced. These items stay as they were here and are read again at the
          next sync.
        </p>
        <div className="dialog-actions">
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}

/** The active connection, online state, unsynced changes and the sync button. */
export function Header() {
  const connection = useAppStore((s) => s.connection);
  const online = useAppStore((s) => s.online);
  const outbox = useAppStore((s) => s.outbox);
  const phase = useAppStore((s) => s.sync.phase);
  const syncNow = useAppStore((s) => s.syncNow);
  const busy = phase === 'pulling' || phase === 'pushing';
  const unsynced = unsyncedTotal(outbox);
  const breakdown = `${outbox.pending} waiting to be sent, ${outbox.inDoubt} being checked with the server, ${plural(outbox.conflicts, 'conflict')} to resolve`;

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
          </>
        ) : (
          <span className="header-label">Not connected</span>
        )}
      </div>
      <div className="header-status">
        <span className={`pill ${online ? 'pill-online' : 'pill-offline'}`}>
          {online ? (
            <Wifi aria-hidden="true" size={16} />
          ) : (
            <CloudOff aria-hidden="true" size={16} />
          )}
          {online ? 'Online' : 'Offline'}
        </span>
        <span
          className={`pill ${unsynced > 0 ? 'pill-warn' : ''}`}
          title={`Local changes not yet confirmed by the server: ${breakdown}`}
          data-testid="unsynced-count"
        >
          {unsynced > 0 ? plural(unsynced, 'unsynced change') : 'All changes synced'}
          <span className="visually-hidden"> ({breakdown})</span>
        </span>
        {outbox.conflicts > 0 && (
          <Link href="/conflicts" className="pill pill-warn pill-link">
            <GitCompare aria-hidden="true" size={16} />
            {plural(outbox.conflicts, 'conflict')} to resolve
          </Link>
        )}
        <SyncStatus />
        <button
          type="button"
          className="button"
          onClick={() => void syncNow()}
          disabled={busy || !connection}
          aria-busy={busy}
        >
          <RefreshCw aria-hidden="true" size={16} className={busy ? 'spin' : undefined} />
          Sync now
        </button>
      </div>
    </header>
  );
}
