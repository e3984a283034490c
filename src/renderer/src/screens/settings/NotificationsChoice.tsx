import { useId } from 'react';
import { useAppStore } from '@renderer/stores/app-store';
import '@renderer/styles/notifications.css';

/** Whether shipped, cancelled and settled work is announced; remembered by main. */
export function NotificationsChoice() {
  const enabled = useAppStore((s) => s.notifications);
  const transport = useAppStore((s) => s.transport);
  const setNotifications = useAppStore((s) => s.setNotifications);
  const hintId = useId();
  return (
    <section className="card" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          aria-describedby={hintId}
          onChange={(event) => void setNotifications(event.target.checked)}
        />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">Notify me about orders and batches</span>
      </label>
      <p id={hintId} className="field-hint">
        When an order ships or is cancelled, a batch finishes, or a change the server had not
        confirmed is settled
        {transport === 'browser'
          ? ', a message appears in this window.'
          : ', a desktop notification appears.'}
      </p>
    </section>
  );
}
