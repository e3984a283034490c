import { GraduationCap, Pause, Play } from 'lucide-react';
import type { PracticeFulfillment } from '@shared/practice-views';
import { setPracticePaused } from '@renderer/lib/practice';
import '@renderer/styles/practice.css';

/**
 * The header's "Practice mode" mark: on every screen while practice mode is on, with the practice
 * server's fulfillment paused or resumed from there (the speed and "Step now" are on the Practice
 * screen).
 */
export function PracticeMarker({
  fulfillment,
  onChange,
}: {
  fulfillment: PracticeFulfillment;
  onChange(): void;
}) {
  const { paused } = fulfillment;
  const toggle = async () => {
    await setPracticePaused(!paused);
    onChange();
  };
  return (
    <>
      <span
        className="kind kind-practice"
        data-testid="practice-marker"
        title="Practice mode: everything here happens on the built-in sandbox on this computer. No real order is touched."
      >
        <GraduationCap aria-hidden="true" size={14} />
        {paused ? 'Practice mode, paused' : 'Practice mode'}
      </span>
      <button
        type="button"
        className="icon-button practice-pause"
        aria-label={paused ? 'Resume orders' : 'Pause orders'}
        title={
          paused
            ? 'Resume orders: the practice server moves them along on its own again'
            : 'Pause orders: none moves on its own until you resume'
        }
        onClick={() => void toggle()}
      >
        {paused ? <Play aria-hidden="true" size={16} /> : <Pause aria-hidden="true" size={16} />}
      </button>
    </>
  );
}
