import { CloudOff, RefreshCw, Wifi } from 'lucide-react';
import { KIND_LABELS, formatTime, plural } from '../lib/format';
import { unsyncedTotal, useAppStore } from '../stores/app-store';

function SyncStatus() {
  const sync = useAppStore((s) => s.sync);
  switch (sync.phase) {
    case 'pulling':
      return <>Fetching changes…</>;
    case 'pushing':
      return <>Sending changes…</>;
    case 'offline':
      return <>Waiting for the network</>;
    case 'error':
      return <>Sync failed{sync.error ? `: ${sync.error}` : ''}</>;
    default:
      return (
        <>{sync.lastSyncedAt ? `Synced ${formatTime(sync.lastSyncedAt)}` : 'Not synced yet'}</>
      );
  }
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
        <span className="sync-status muted" role="status">
          <SyncStatus />
        </span>
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
