import { useId } from 'react';
import { useAppStore } from '../stores/app-store';

/**
 * "At the desk": who of the people sharing this desk is working now (Settings lists them), a
 * native select so that the keyboard and screen readers need nothing more. Every activity entry
 * names the person picked, until another is. Not shown while nobody is listed.
 */
export function DeskPicker() {
  const staff = useAppStore((s) => s.staff);
  const atDesk = useAppStore((s) => s.atDesk);
  const choose = useAppStore((s) => s.chooseAtDesk);
  const id = useId();
  if (staff.length === 0) return null;
  return (
    <div className="header-desk">
      <label htmlFor={id} className="header-desk-label muted">
        At the desk
      </label>
      <select
        id={id}
        className="input header-desk-select"
        value={atDesk ?? ''}
        onChange={(event) => void choose(event.target.value || null)}
      >
        <option value="">Not chosen</option>
        {staff.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
