import { useEffect } from 'react';

/** The screens Ctrl/Cmd + 1..3 open, in sidebar order. */
export const SCREENS = [
  { key: '1', path: '/catalog', label: 'Catalog' },
  { key: '2', path: '/settings', label: 'Settings' },
  { key: '3', path: '/connect', label: 'Connection' },
] as const;

export function useScreenShortcuts(navigate: (path: string) => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const screen = SCREENS.find((s) => s.key === event.key);
      if (!screen) return;
      event.preventDefault();
      navigate(screen.path);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
}
