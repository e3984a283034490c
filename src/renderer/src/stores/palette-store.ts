import { useEffect, useRef } from 'react';
import { create } from 'zustand';

/** Something the palette can run: a command of the app or of the screen shown. */
export interface PaletteCommand {
  id: string;
  label: string;
  /** Words that find it besides its label. */
  keywords?: readonly string[];
  run(): void;
}

/** A place the palette went to, kept on top of the next search (in memory: never on disk). */
export interface PaletteRecent {
  kind: 'patient' | 'protocol' | 'order' | 'screen';
  href: string;
  label: string;
  detail: string;
}

/** How many recent places are kept per connection. */
export const RECENT_LIMIT = 8;

interface PaletteState {
  open: boolean;
  /** The commands each mounted screen offers, by the screen that registered them. */
  screenCommands: Readonly<Record<string, readonly PaletteCommand[]>>;
  /** Recent places of one connection: another connection's are never shown. */
  recents: { connectionId: string | null; items: readonly PaletteRecent[] };
  setOpen(open: boolean): void;
  setScreenCommands(owner: string, commands: readonly PaletteCommand[] | null): void;
  remember(connectionId: string | null, item: PaletteRecent): void;
}

export const usePaletteStore = create<PaletteState>()((set) => ({
  open: false,
  screenCommands: {},
  recents: { connectionId: null, items: [] },
  setOpen: (open) => set({ open }),
  setScreenCommands: (owner, commands) =>
    set((s) => {
      const next = { ...s.screenCommands };
      if (commands) next[owner] = commands;
      else delete next[owner];
      return { screenCommands: next };
    }),
  remember: (connectionId, item) =>
    set((s) => {
      const same = s.recents.connectionId === connectionId ? s.recents.items : [];
      const items = [item, ...same.filter((r) => r.href !== item.href)].slice(0, RECENT_LIMIT);
      return { recents: { connectionId, items } };
    }),
}));

/** The recent places of `connectionId`, newest first. */
export const recentsOf = (
  recents: PaletteState['recents'],
  connectionId: string | null,
): readonly PaletteRecent[] => (recents.connectionId === connectionId ? recents.items : []);

/**
 * Offers `commands` in the palette while the calling screen is mounted. The commands may change
 * every render: the palette runs the latest of each id.
 */
export function useScreenCommands(owner: string, commands: readonly PaletteCommand[]): void {
  const latest = useRef(commands);
  latest.current = commands;
  const key = commands.map((c) => `${c.id}\u0000${c.label}`).join('\u0001');
  const setScreenCommands = usePaletteStore((s) => s.setScreenCommands);
  useEffect(() => {
    setScreenCommands(
      owner,
      latest.current.map((c) => ({
        ...c,
        run: () => latest.current.find((l) => l.id === c.id)?.run(),
      })),
    );
    return () => setScreenCommands(owner, null);
  }, [owner, key, setScreenCommands]);
}
