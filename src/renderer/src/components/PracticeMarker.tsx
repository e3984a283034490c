import { GraduationCap } from 'lucide-react';
import '@renderer/styles/practice.css';

/** The header's "Practice mode" mark: on every screen while practice mode is on. */
export function PracticeMarker() {
  return (
    <span
      className="kind kind-practice"
      data-testid="practice-marker"
      title="Practice mode: everything here happens on the built-in sandbox on this computer. No real order is touched."
    >
      <GraduationCap aria-hidden="true" size={14} />
      Practice mode
    </span>
  );
}
