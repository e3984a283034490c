import { CloudOff, Wifi } from 'lucide-react';
import { useId, useState } from 'react';
import type { PracticeServer } from '@shared/practice-views';
import { errorMessage } from '@renderer/lib/ipc';
import { PracticeError } from './PracticeCard';
import { setOffline, setServer } from './use-practice-data';

/** Takes the practice server offline and back: the app's real offline handling follows. */
const SERVER_TEXT: Record<PracticeServer, string> = {
  normal: 'Normally',
  slow: 'Slowly: every request 3 seconds late',
  failing: 'Failing: every request refused with 503 Service Unavailable',
};

export function ServerControls({
  offline,
  server,
  onChange,
}: {
  offline: boolean;
  server: PracticeServer;
  onChange(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The behaviour asked for, shown until main's state says it (or the call failed). */
  const [asked, setAsked] = useState<PracticeServer | null>(null);
  const answersId = useId();

  const answer = async (next: PracticeServer) => {
    setAsked(next);
    setError(null);
    const result = await setServer(next);
    setAsked(null);
    if (!result.ok) setError(errorMessage(result.error));
    onChange();
  };

  const toggle = async () => {
    setBusy(true);
    setError(null);
    const result = await setOffline(!offline);
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
            {server === 'normal'
              ? 'The practice server is online.'
              : server === 'slow'
                ? 'The practice server is online, and slow: every request is answered 3 seconds late.'
                : 'The practice server is online, and failing: every request is refused with 503.'}
          </>
        )}
      </p>
      <p className="field-hint">
        Offline, the app does what it does when the network or the server is gone: the header says
        Offline, changes wait on this computer and are sent once the server is back. Slow or
        failing, it shows how the app waits, retries and reports a server in trouble.
      </p>
      <div className="field practice-answers">
        <label className="field-label" htmlFor={answersId}>
          How it answers
        </label>
        <select
          id={answersId}
          className="input select"
          value={asked ?? server}
          disabled={offline}
          onChange={(event) => void answer(event.target.value as PracticeServer)}
        >
          {(Object.keys(SERVER_TEXT) as PracticeServer[]).map((s) => (
            <option key={s} value={s}>
              {SERVER_TEXT[s]}
            </option>
          ))}
        </select>
      </div>
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
      <PracticeError error={error} />
    </section>
  );
}
