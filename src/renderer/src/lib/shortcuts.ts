import { useEffect } from 'react';
import type { StartScreen } from '@shared/ipc/app';

/**
 * The dashboard, first in the sidebar. Every digit was taken when it came (and Ctrl/Cmd+0 is the
 * menu's Actual Size), so it opens with Ctrl/Cmd+Shift+D and no earlier shortcut moved.
 */
export const DASHBOARD_SCREEN = {
  path: '/dashboard',
  label: 'Dashboard',
  shortcut: { shown: '⇧D', keys: 'Shift+D' },
} as const;

/** Where a start screen (Settings, "Start on") is. */
export const startPath = (screen: StartScreen): string =>
  screen === 'dashboard' ? DASHBOARD_SCREEN.path : '/protocols';

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
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.shiftKey) {
        if (event.code !== 'KeyD') return;
        event.preventDefault();
        navigate(DASHBOARD_SCREEN.path);
        return;
      }
      const screen = SCREENS.find((s) => s.key === event.key);
      if (!screen) return;
      event.preventDefault();
      navigate(screen.path);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
}
