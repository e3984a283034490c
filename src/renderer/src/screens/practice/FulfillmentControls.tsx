import { Pause, Play, StepForward } from 'lucide-react';
import { useState } from 'react';
import type { PracticeFulfillment, PracticeSpeed, PracticeStep } from '@shared/practice-views';
import { errorMessage } from '@renderer/lib/ipc';
import { useScreenCommands } from '@renderer/stores/palette-store';
import { PracticeError } from './PracticeCard';
import { PracticeSelect } from './PracticeSelect';
import { usePracticeCommand } from './use-practice-command';
import { setFulfillment, stepOrders } from './use-practice-data';

const SPEEDS: { value: PracticeSpeed; label: string }[] = [
  { value: 'slow', label: 'Slow: a step every 5 minutes' },
  { value: 'normal', label: 'Normal: a step every minute' },
  { value: 'fast', label: 'Fast: a step every 15 seconds' },
];

const EVERY: Record<PracticeSpeed, string> = {
  slow: 'every 5 minutes',
  normal: 'every minute',
  fast: 'every 15 seconds',
};

/**
 * The practice server's own fulfillment: every order on its way moves a step at the chosen speed,
 * or none while paused; "Step now" moves them all one step at once.
 */
export function FulfillmentControls({
  fulfillment,
  offline,
  onChange,
}: {
  fulfillment: PracticeFulfillment;
  offline: boolean;
  onChange(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const step = usePracticeCommand<PracticeStep>();
  const { paused, speed } = fulfillment;

  const set = async (change: { paused?: boolean; speed?: PracticeSpeed }) => {
    setError(null);
    const result = await setFulfillment(change);
    if (!result.ok) setError(errorMessage(result.error));
    onChange();
  };

  useScreenCommands('practice-fulfillment', [
    {
      id: 'practice-pause',
      label: paused ? 'Resume the practice fulfillment' : 'Pause the practice fulfillment',
      keywords: ['practice', 'sandbox'],
      run: () => void set({ paused: !paused }),
    },
    // As its button: no step while the server is offline or a step is under way.
    ...(offline || step.busy
      ? []
      : [
          {
            id: 'practice-step',
            label: 'Step every practice order now',
            keywords: ['practice', 'advance', 'sandbox'],
            run: () => void step.run(() => stepOrders()),
          },
        ]),
  ]);

  const moved = step.done?.moved;
  return (
    <section className="card" aria-labelledby="practice-fulfillment-heading">
      <h2 id="practice-fulfillment-heading">Fulfillment</h2>
      <p className="practice-server-state" role="status">
        {paused ? (
          <>
            <Pause aria-hidden="true" size={16} />
            Paused: no order moves on its own until you resume.
          </>
        ) : (
          <>
            <Play aria-hidden="true" size={16} />
            {`Every order on its way moves a step ${EVERY[speed]}, from New to Delivered.`}
          </>
        )}
      </p>
      <p className="field-hint">
        Pause to practise on an order while it stays where it is (a New order can still be
        cancelled); step to move every order on its way one step now.
      </p>
      <div className="practice-answers">
        <PracticeSelect
          label="Speed"
          value={speed}
          options={SPEEDS}
          onChange={(next) => void set({ speed: next })}
        />
      </div>
      <div className="form-actions form-actions-start practice-actions">
        <button type="button" className="button" onClick={() => void set({ paused: !paused })}>
          {paused ? <Play aria-hidden="true" size={16} /> : <Pause aria-hidden="true" size={16} />}
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button
          type="button"
          className="button"
          disabled={offline || step.busy}
          aria-busy={step.busy}
          onClick={() => void step.run(() => stepOrders())}
        >
          <StepForward aria-hidden="true" size={16} />
          Step now
        </button>
      </div>
      <div role="status" className="practice-result">
        {moved !== undefined ? (
          <p>
            {moved === 0
              ? 'No order was on its way: nothing moved.'
              : `${moved} ${moved === 1 ? 'order' : 'orders'} moved one step.`}
          </p>
        ) : null}
      </div>
      <PracticeError error={error ?? step.error} />
    </section>
  );
}
