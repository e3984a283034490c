import { useMemo } from 'react';
import { useAppStore } from '@renderer/stores/app-store';
import type { PaletteCommand } from '@renderer/stores/palette-store';

/** The commands the palette offers on every screen. */
export function useAppCommands(navigate: (to: string) => void): PaletteCommand[] {
  const syncNow = useAppStore((s) => s.syncNow);
  return useMemo(
    () => [
      {
        id: 'new-protocol',
        label: 'New protocol',
        keywords: ['create', 'add'],
        run: () => navigate('/protocols/new'),
      },
      {
        id: 'new-order',
        label: 'New order from scratch',
        keywords: ['create', 'place'],
        run: () => navigate('/new-order'),
      },
      {
        id: 'import-csv',
        label: 'Import protocols from CSV',
        keywords: ['upload', 'file'],
        run: () => navigate('/protocols/import'),
      },
      {
        id: 'review-refills',
        label: 'Review refills due',
        keywords: ['reorder', 'batch'],
        run: () => navigate('/refills'),
      },
      {
        id: 'sync-now',
        label: 'Sync now',
        keywords: ['refresh', 'pull', 'push'],
        run: () => void syncNow(),
      },
    ],
    [navigate, syncNow],
  );
}
