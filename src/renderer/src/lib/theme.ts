import { useEffect } from 'react';
import type { Theme } from '@shared/ipc';

const dark = () => window.matchMedia('(prefers-color-scheme: dark)');

/** Puts the effective theme on <html data-theme>; "system" follows the OS and its changes. */
export function useAppliedTheme(theme: Theme): void {
  useEffect(() => {
    const apply = () => {
      const effective = theme === 'system' ? (dark().matches ? 'dark' : 'light') : theme;
      document.documentElement.dataset.theme = effective;
    };
    apply();
    if (theme !== 'system') return;
    const query = dark();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [theme]);
}
