import { CloudOff, Wifi } from 'lucide-react';
import { useState } from 'react';
import { call, errorMessage } from '@renderer/lib/ipc';

/** Takes the practice server offline and back: the app's real offline handling follows. */
export function ServerControls({ offline, onChange }: { offline: boolean; onChange(): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = async () => {
    setBusy(true);
    setError(null);
    const result = await call('practice.setOffline', { offline: !offline });
    setBusy(false);
    if (!result.ok) setError(errorMessage(result.error));
    onChange();
  };

  return (
    <section className="card" aria-labelledby="practice-server-heading">
      <h2 id="practice-server-heading">The server</h2>
      <p className="practice-server-state" role="status">
        {offline ? (
          <>
            <CloudOff aria-hidden="true" size={16} />
            The practice server is offline: it closes every connection unanswered.
          </>
        ) : (
          <>
            <Wifi aria-hidden="true" size={16} />
            The practice server is online.
          </>
        )}
      </p>
      <p className="field-hint">
        Offline, the app does what it does when the network or the server is gone: the header says
        Offline, changes wait on this computer and are sent once the server is back.
      </p>
      <div className="form-actions form-actions-start practice-actions">
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void toggle()}
        >
          {offline ? 'Bring the server back online' : 'Take the server offline'}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
