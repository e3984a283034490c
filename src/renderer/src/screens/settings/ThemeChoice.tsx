import type { Theme } from '@shared/ipc';
import { useAppStore } from '@renderer/stores/app-store';

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light, dark, or whatever the operating system uses; remembered by main. */
export function ThemeChoice() {
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  return (
    <section className="card" aria-labelledby="appearance-heading">
      <h2 id="appearance-heading">Appearance</h2>
      <fieldset className="segmented">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t.value} className="segment">
            <input
              type="radio"
              name="theme"
              value={t.value}
              checked={theme === t.value}
              onChange={() => void setTheme(t.value)}
            />
            <span>{t.label}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
