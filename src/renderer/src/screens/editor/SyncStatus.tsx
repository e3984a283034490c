import { AlertTriangle, CheckCircle2, CloudOff, Loader2 } from 'lucide-react';
import { Link } from 'wouter';
import type { ProtocolView } from '@shared/protocol-views';
import { refusalText } from '@renderer/lib/server-issues';

interface Props {
  view: ProtocolView;
  online: boolean;
}

/** Where the saved protocol stands with the server: synced, pending, in doubt, conflict, rejected. */
export function SyncStatus({ view, online }: Props) {
  const change = view.change;
  if (view.syncState === 'conflict') {
    return (
      <div className="notice notice-warn editor-sync" role="status" data-sync="conflict">
        <p className="notice-title">
          <AlertTriangle aria-hidden="true" size={16} /> Conflict with the server
        </p>
        <p>
          {change?.message ?? 'It was changed on the server meanwhile.'}{' '}
          <Link href="/conflicts">Resolve it in Conflicts</Link>.
        </p>
      </div>
    );
  }
  if (view.syncState === 'synced' || !change) {
    return (
      <p className="notice notice-success editor-sync" role="status" data-sync="synced">
        <CheckCircle2 aria-hidden="true" size={16} /> Synced with the server.
      </p>
    );
  }
  if (change.state === 'rejected') {
    return (
      <div className="notice notice-error editor-sync" role="status" data-sync="rejected">
        <p className="notice-title">
          <AlertTriangle aria-hidden="true" size={16} /> The server refused this protocol
        </p>
        <p>{refusalText(change.message)} Fix it and save again.</p>
      </div>
    );
  }
  if (change.state === 'in_doubt') {
    return (
      <p className="notice notice-warn editor-sync" role="status" data-sync="in-doubt">
        <Loader2 aria-hidden="true" size={16} className="spin" /> In doubt: checking whether the
        server got the last change before sending anything again.
      </p>
    );
  }
  if (!online || change.message) {
    return (
      <div className="notice notice-info editor-sync" role="status" data-sync="pending">
        <p className="notice-title">
          <CloudOff aria-hidden="true" size={16} /> Pending: saved on this computer
        </p>
        <p>
          It will be sent when the server is back.
          {change.message ? ` Last try: ${change.message}` : ''}
        </p>
      </div>
    );
  }
  return (
    <p className="notice notice-info editor-sync" role="status" data-sync="pending">
      <Loader2 aria-hidden="true" size={16} className="spin" /> Pending:{' '}
      {change.state === 'sending' ? 'sending to the server…' : 'waiting to be sent.'}
    </p>
  );
}
