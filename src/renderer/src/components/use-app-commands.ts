import { useMemo } from 'react';
import { useAppStore } from '@renderer/stores/app-store';
import type { PaletteCommand } from '@renderer/stores/palette-store';
import { useUndoStore } from '@renderer/stores/undo-store';

/** The commands the palette offers on every screen. */
export function useAppCommands(navigate: (to: string) => void): PaletteCommand[] {
  const syncNow = useAppStore((s) => s.syncNow);
  const undo = useUndoStore((s) => s.undo);
  const redo = useUndoStore((s) => s.redo);
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
      {
        id: 'undo',
        label: 'Undo the last change',
        keywords: ['revert', 'back', 'ctrl+z'],
        run: () => void undo(),
      },
      {
        id: 'redo',
        label: 'Redo',
        keywords: ['again', 'ctrl+shift+z', 'ctrl+y'],
        run: () => void redo(),
      },
    ],
    [navigate, syncNow, undo, redo],
  );
}
