import type { StartScreen } from '@shared/ipc/app';
import { useAppStore } from '@renderer/stores/app-store';

const SCREENS: { value: StartScreen; label: string }[] = [
  { value: 'dashboard', label: 'Dashboard' },
  { value: 'protocols', label: 'Protocols' },
];

/** The screen shown first after connecting; remembered by main. */
export function StartScreenChoice() {
  const screen = useAppStore((s) => s.startScreen);
  const setStartScreen = useAppStore((s) => s.setStartScreen);
  return (
    <section className="card" aria-labelledby="start-screen-heading">
      <h2 id="start-screen-heading">First screen</h2>
      <fieldset className="segmented">
        <legend>Start on</legend>
        {SCREENS.map((s) => (
          <label key={s.value} className="segment">
            <input
              type="radio"
              name="start-screen"
              value={s.value}
              checked={screen === s.value}
              onChange={() => void setStartScreen(s.value)}
            />
            <span>{s.label}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
