import { KeyRound, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ConnectionView, IpcError } from '@shared/ipc';
import type { ConnectionRemoval } from '@shared/store-views';
import { ConfirmDialog } from '@renderer/components/Dialog';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { KIND_LABELS, formatBytes, plural } from '@renderer/lib/format';
import { errorMessage } from '@renderer/lib/ipc';
import { toast } from '@renderer/stores/toast-store';
import { PartnerConnectionForm } from './PartnerConnectionForm';
import type { useSwitchConnection } from './use-switch';
import {
  activateConnection,
  connectionRemoval,
  removeConnection,
  useConnections,
} from './use-connections';
import '@renderer/styles/connect.css';

type List =
  | { state: 'loading' }
  | { state: 'ready'; value: ConnectionView[] }
  | { state: 'failed'; error: IpcError };

/** Connections saved before: switch to one, or remove it (after a confirmation). */
export function SavedConnections({
  switcher,
  hideWhenEmpty,
}: {
  switcher: ReturnType<typeof useSwitchConnection>;
  /** On first run there is nothing to list: say nothing rather than "none". */
  hideWhenEmpty: boolean;
}) {
  const read = useConnections();
  const list: List =
    read.status === 'loading'
      ? { state: 'loading' }
      : read.data
        ? { state: 'ready', value: read.data }
        : { state: 'failed', error: read.error! };
  const load = read.refresh;
  /** The removal the user is asked to confirm: what it deletes, read from main first. */
  const [removing, setRemoving] = useState<ConnectionRemoval | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const askRemove = async (connection: ConnectionView) => {
    const result = await connectionRemoval(connection.id);
    if (result.ok) setRemoving(result.value);
    else toast.error(`${connection.label} cannot be removed. ${errorMessage(result.error)}`);
  };

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    const result = await removeConnection(removing.id);
    setBusy(false);
    setRemoving(null);
    if (result.ok) toast.success(`Removed ${removing.label} and its data.`);
    else toast.error(`${removing.label} was not removed. ${errorMessage(result.error)}`);
    load();
  };

  if (hideWhenEmpty && (list.state !== 'ready' || list.value.length === 0)) return null;
  return (
    <section className="card" aria-labelledby="saved-connections">
      <h2 id="saved-connections">Saved connections</h2>
      {list.state === 'loading' && <Loading label="Loading saved connections…" />}
      {list.state === 'failed' && (
        <Failed what="Saved connections could not be loaded." error={list.error} onRetry={load} />
      )}
      {list.state === 'ready' && list.value.length === 0 && (
        <Empty title="No saved connections yet." />
      )}
      {list.state === 'ready' && list.value.length > 0 && (
        <ul className="connection-list">
          {list.value.map((c) => (
            <li key={c.id} className="connection-item">
              <div className="connection-text">
                <p className="connection-name">
                  {c.label}
                  {c.label !== KIND_LABELS[c.kind] && (
                    <span className={`kind kind-${c.kind}`}>{KIND_LABELS[c.kind]}</span>
                  )}
                  {c.isActive && <span className="badge badge-active">Active</span>}
                  {c.secretMissing && (
                    <span className="badge badge-backordered">
                      <KeyRound aria-hidden="true" size={12} /> Secret missing
                    </span>
                  )}
                </p>
                <p className="muted connection-meta">
                  {c.kind === 'embedded'
                    ? 'Runs inside Order Desk, works offline'
                    : `${c.baseUrl} · client ${c.clientId}`}
                </p>
                {c.secretMissing && editing !== c.id && (
                  <p className="connection-warning">
                    Its client secret is missing from the keychain, so Order Desk cannot sign in.
                    Choose Edit and enter the secret again.
                  </p>
                )}
                {editing === c.id && c.kind !== 'embedded' && (
                  <PartnerConnectionForm
                    kind={c.kind}
                    editing={c}
                    switcher={switcher}
                    onDone={() => {
                      setEditing(null);
                      load();
                    }}
                  />
                )}
              </div>
              <div className="connection-actions">
                {c.kind !== 'embedded' && editing !== c.id && (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Edit ${c.label}`}
                    onClick={() => setEditing(c.id)}
                  >
                    <Pencil aria-hidden="true" size={16} />
                    Edit
                  </button>
                )}
                {!c.isActive && (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Switch to ${c.label}`}
                    onClick={() => void switcher.run(() => activateConnection(c.id))}
                  >
                    Switch
                  </button>
                )}
                {/* The connection in use cannot be removed (main refuses): switch away first. */}
                {!c.isActive && (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove ${c.label}`}
                    title={`Remove ${c.label}`}
                    onClick={() => void askRemove(c)}
                  >
                    <Trash2 aria-hidden="true" size={18} />
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.label ?? 'connection'}?`}
        confirmLabel="Remove and delete its data"
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        {removing && <RemovalSummary removal={removing} />}
      </ConfirmDialog>
    </section>
  );
}

/** What removing a connection deletes from this computer, as main counted it. */
function RemovalSummary({ removal }: { removal: ConnectionRemoval }) {
  const { protocols, unsentChanges, batches, unfinishedBatches, orders } = removal;
  const empty = removal.bytes === 0;
  return (
    <>
      <p>This deletes from this computer, for good:</p>
      <ul className="removal-list" data-testid="removal-summary">
        <li>the connection and its client secret in the keychain;</li>
        {empty ? (
          <li>no local data: nothing was kept for it yet.</li>
        ) : (
          <li>
            its local data ({formatBytes(removal.bytes)}), which holds:
            <ul>
              <li>{plural(protocols, 'protocol')}</li>
              {unsentChanges > 0 && (
                <li className="removal-loss">
                  {plural(unsentChanges, 'change')} not yet sent to the server, which will never
                  reach it
                </li>
              )}
              <li>
                {plural(batches, 'batch', 'batches')}
                {unfinishedBatches > 0 &&
                  `, ${unfinishedBatches} unfinished: ${unfinishedBatches === 1 ? 'its' : 'their'} remaining orders will never be sent`}
              </li>
              <li>{plural(orders, 'order')} with their status history</li>
            </ul>
            <p className="removal-file">
              The file: <code className="store-path">{removal.storeFile}</code>
            </p>
          </li>
        )}
      </ul>
      <p>The server and the work saved on it are not affected.</p>
    </>
  );
}
