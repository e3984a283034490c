import { useEffect, useId, useState } from 'react';
import { describeError } from '@renderer/lib/ipc';
import { setPracticeEnabled, usePractice } from '@renderer/lib/practice';
import { toast } from '@renderer/stores/toast-store';
import '@renderer/styles/notifications.css';

/** Practice mode's switch: offered only while the built-in sandbox is the active connection. */
export function PracticeSwitch() {
  const practice = usePractice();
  /** The position asked for, shown until main's state says the same (or the switch failed). */
  const [asked, setAsked] = useState<boolean | null>(null);
  const hintId = useId();
  useEffect(() => {
    if (asked === practice.enabled) setAsked(null);
  }, [asked, practice.enabled]);
  if (!practice.available) return null;

  const setEnabled = async (enabled: boolean) => {
    setAsked(enabled);
    const result = await setPracticeEnabled(enabled);
    if (!result.ok) {
      setAsked(null);
      const { title, detail } = describeError(result.error);
      toast.error(`Practice mode could not be switched. ${title}`, detail);
    }
    practice.refresh();
  };

  return (
    <section className="card" aria-labelledby="practice-heading">
      <h2 id="practice-heading">Practice mode</h2>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={asked ?? practice.enabled}
          aria-busy={asked !== null}
          aria-describedby={hintId}
          onChange={(event) => void setEnabled(event.target.checked)}
        />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">Practice on the local sandbox</span>
      </label>
      <p id={hintId} className="field-hint">
        Adds a Practice screen with the sandbox&apos;s controls: move an order along to shipped,
        change a protocol as another desk would, discontinue or backorder a product, make the server
        slow, failing or offline. Everything stays on this computer; no real order is touched, and
        these controls are never offered on a partner or production connection.
      </p>
    </section>
  );
}
