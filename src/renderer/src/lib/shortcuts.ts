import { useEffect } from 'react';

/**
 * The screens Ctrl/Cmd + 1..9 open, in sidebar order: the daily work first; Patients, added
 * later, takes the next key so that every earlier shortcut stays the same.
 */
export const SCREENS = [
  { key: '1', path: '/protocols', label: 'Protocols' },
  { key: '2', path: '/orders', label: 'Orders' },
  { key: '3', path: '/batches', label: 'Batches' },
  { key: '4', path: '/refills', label: 'Refills due' },
  { key: '5', path: '/conflicts', label: 'Conflicts' },
  { key: '6', path: '/catalog', label: 'Catalog' },
  { key: '7', path: '/settings', label: 'Settings' },
  { key: '8', path: '/connect', label: 'Connection' },
  { key: '9', path: '/patients', label: 'Patients' },
] as const;

/**
 * Screens the sidebar lists after those, with no shortcut: Ctrl/Cmd+0 is the menu's Actual Size
 * (menu-template.ts), and moving a key would break the users' habits.
 */
export const MORE_SCREENS = [{ path: '/activity', label: 'Activity' }] as const;

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
